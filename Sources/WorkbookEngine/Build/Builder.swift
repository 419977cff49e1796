import Foundation
import WorkbookCore

/// Builds the chapters under the Thread Sanitizer, leaving out what does not compile.
///
/// One file that fails to compile fails the whole test build, so the builder reads the errors and
/// builds again without their source (see ``decide(_:in:sources:testFiles:leftOutBefore:filesPresent:)``):
/// when every error of a chapter lies in exercise files of that chapter, only those exercises go —
/// each file and its suite's test files (Package.swift reads `WORKBOOK_EXCLUDE`) — and the rest of
/// the chapter is built and graded; otherwise the whole chapter goes (`WORKBOOK_ONLY`). Each round
/// leaves out a chapter or narrows one for the first time, so the rounds are bounded. What a
/// successful build left out is remembered beside it: the next build starts without it while
/// nothing in its chapter has changed, instead of failing the same way first.
package struct Builder: Sendable {
    var workbook: Workbook
    /// Whose `swift` builds, and whose launch the build is for.
    var platform: Platform
    var sources: SourceSet
    /// Where the build goes, e.g. `.build-check`.
    var scratchPath: URL
    /// Called with a line of progress for the user.
    var progress: @Sendable (String) -> Void
    /// Whether to report SwiftPM's every step too (for a terminal's one updating line).
    var showsSteps = false
    /// Whether to start without the exercises the last build here left out, while their chapters
    /// are unchanged (the self-test turns it off: it proves every starter by compiling it).
    package var remembersExclusions = true
    /// Whether the build holds the engine and its unit tests too (the self-test's, which runs them);
    /// grading builds leave them out (see ``BuildSettings/engine``).
    package var withEngine = false
    /// What runs each build; `nil`: SwiftPM under TSan. Tests give recorded builds here, so the
    /// leave-out loop is tested without a compiler.
    var packageBuild: (any PackageBuild)?

    package init(workbook: Workbook, platform: Platform, sources: SourceSet, scratchPath: URL,
                 progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.workbook = workbook
        self.platform = platform
        self.sources = sources
        self.scratchPath = scratchPath
        self.progress = progress
    }

    /// Builds `chapters` (all by default) and their tests.
    package func build(_ chapters: [Chapter]? = nil) throws -> BuildResult {
        let start = Date()
        var remaining = chapters ?? workbook.chapters
        var broken: [(chapter: Chapter, errors: [CompilerError])] = []
        // What the last build here left out, if nothing in its chapter changed since: it still does
        // not compile, and a build that tried it again would only fail the same way first.
        var excluded = remembersExclusions ? rememberedExclusions(of: remaining) : []
        for item in excluded {
            progress(Says.stillDoesNotCompile(item.exercise, of: item.chapter))
        }
        // Every round drops a chapter or narrows one for the first time; one more builds what is left.
        for _ in 0...(2 * remaining.count) {
            let only = remaining.count == workbook.chapters.count ? nil : remaining.map(\.shortName)
            let exclude = excluded.flatMap { exclusion(of: $0.chapter, $0.exercise) }
            let result = try runBuild(only: only, exclude: exclude)
            if result.termination == .exited(0) {
                remember(excluded)
                return BuildResult(built: remaining, broken: broken, excluded: excluded, launch: launch(only: only, exclude: exclude),
                                   seconds: Date().timeIntervalSince(start), output: result.output)
            }
            if Self.lacksSanitizer(result.output) { throw WorkbookError.noSanitizer }
            let errors = Self.compilerErrors(in: result.output)
            var decisions: [(chapter: Chapter, decision: Decision)] = []
            for chapter in remaining {
                let before = excluded.filter { $0.chapter.name == chapter.name }
                let present = chapter.exercises.allSatisfy { exercise in
                    FileManager.default.fileExists(atPath: sourceFile(chapter, exercise).path)
                }
                if let decision = Self.decide(errors, in: chapter, sources: sources, testFiles: testFiles(of: chapter),
                                              leftOutBefore: before, filesPresent: present) {
                    decisions.append((chapter, decision))
                }
            }
            guard !decisions.isEmpty else {
                let summary = errors.prefix(5).map { $0.summary() }.joined(separator: "\n")
                throw WorkbookError.buildFailedOutsideChapters(
                    details: summary.isEmpty ? Grader.tail(of: result.output, lines: 30) : summary)
            }
            for (chapter, decision) in decisions {
                switch decision {
                case let .leaveOut(exercises):
                    progress(Says.leftOut(exercises.map(\.exercise.id), of: chapter))
                    excluded += exercises
                case let .drop(chapterErrors):
                    progress(Says.chapterLeftOut(chapter))
                    broken.append((chapter, chapterErrors))
                    excluded.removeAll { $0.chapter.name == chapter.name }
                    remaining.removeAll { $0.name == chapter.name }
                }
            }
            if remaining.isEmpty {
                return BuildResult(built: [], broken: broken, excluded: [], launch: nil,
                                   seconds: Date().timeIntervalSince(start), output: result.output)
            }
        }
        throw WorkbookError.buildKeepsFailing
    }

    /// What to do about a chapter whose build failed.
    enum Decision: Sendable, Equatable {
        /// Build the chapter again without these exercises (each with its own errors).
        case leaveOut([ExcludedExercise])
        /// Leave the whole chapter out; these are the errors to show.
        case drop([CompilerError])
    }

    /// Decides, from a failed build's `errors`, what to do about `chapter`; `nil` when no error is
    /// in the chapter. Pure: it reads no files and starts no build.
    ///
    /// - Parameters:
    ///   - testFiles: the files of the chapter's test folder (names only).
    ///   - leftOutBefore: exercises of this chapter already left out in an earlier round.
    ///   - filesPresent: whether every exercise file of the chapter exists.
    ///
    /// The exercises whose files hold the errors are left out when every error of the chapter lies in
    /// such a file, each of them has test files (``testFiles(ofSuite:in:)``), and some exercise of the
    /// chapter stays. Otherwise — an error in a test file or in a file of the chapter that is no
    /// exercise, a missing exercise file, or errors left after the chapter was narrowed once — the
    /// chapter goes as a whole. After a narrowing, the errors shown are those of the first round:
    /// the later ones are often only its echo (another file that used a type of the one left out).
    static func decide(_ errors: [CompilerError], in chapter: Chapter, sources: SourceSet, testFiles: [String],
                              leftOutBefore: [ExcludedExercise], filesPresent: Bool) -> Decision? {
        let mine = errors.filter { error in
            error.file.contains("/\(Layout.chapterFolder(chapter, in: sources))/") || error.file.contains("/\(Layout.testFolder(chapter))/")
        }
        guard !mine.isEmpty else { return nil }
        if !leftOutBefore.isEmpty { return .drop(leftOutBefore.flatMap(\.errors)) }
        guard filesPresent else { return .drop(mine) }
        var leaving: [ExcludedExercise] = []
        for error in mine {
            guard let exercise = chapter.exercises.first(where: { error.file.hasSuffix("/" + Layout.exerciseFile(chapter, $0, in: sources)) }),
                  !Self.testFiles(ofSuite: exercise.suite, in: testFiles).isEmpty else { return .drop(mine) }
            if let index = leaving.firstIndex(where: { $0.exercise.id == exercise.id }) {
                leaving[index].errors.append(error)
            } else {
                leaving.append(ExcludedExercise(chapter: chapter, exercise: exercise, errors: [error]))
            }
        }
        guard leaving.count < chapter.exercises.count else { return .drop(mine) }
        return .leaveOut(leaving)
    }

    /// The test files of a suite, by the workbook's convention: `<Suite>.swift`, and `<Suite>+<part>.swift`
    /// for a suite spread over several files. Only these files may name the exercise's types.
    package static func testFiles(ofSuite suite: String, in files: [String]) -> [String] {
        files.filter { $0 == "\(suite).swift" || ($0.hasPrefix("\(suite)+") && $0.hasSuffix(".swift")) }.sorted()
    }

    /// The `WORKBOOK_EXCLUDE` entries that leave `exercise` out: its file and its suite's test files.
    package func exclusion(of chapter: Chapter, _ exercise: Exercise) -> [String] {
        ["\(chapter.name)/\(exercise.file)"]
            + Self.testFiles(ofSuite: exercise.suite, in: testFiles(of: chapter)).map { "\(chapter.testModule)/\($0)" }
    }

    /// The files of `chapter`'s test folder.
    func testFiles(of chapter: Chapter) -> [String] {
        let folder = workbook.layout.url(Layout.testFolder(chapter))
        return (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    private func sourceFile(_ chapter: Chapter, _ exercise: Exercise) -> URL {
        workbook.layout.url(Layout.exerciseFile(chapter, exercise, in: sources))
    }

    /// One build of the package, through ``packageBuild`` or SwiftPM.
    /// The launch of a build of the chapters `only` names without the files of `exclude`: what the
    /// build is run with (the settings Package.swift reads) and what its tests are started by.
    func launch(only: [String]?, exclude: [String]) -> TestLaunch {
        var launch = TestLaunch(platform: platform, packageRoot: workbook.root, scratchPath: scratchPath, sources: sources,
                                only: only, exclude: exclude)
        launch.withEngine = withEngine
        return launch
    }

    private func runBuild(only: [String]?, exclude: [String]) throws -> ChildResult {
        try (packageBuild ?? SwiftPMBuild(builder: self)).run(only: only, exclude: exclude)
    }
}

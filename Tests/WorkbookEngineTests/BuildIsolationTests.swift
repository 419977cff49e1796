import Foundation
import Testing
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

/// What the builder leaves out after a failed build, decided from recorded compiler output (no
/// build is started here). Recorded on Linux x86-64, Swift 6.3.1, paths rewritten to /work/learner.
@Suite("Leaving out what does not compile")
struct BuildIsolationTests {
    static func chapter(_ number: Int) throws -> Chapter {
        try #require(Fixture.workbook.chapters.first { $0.number == number })
    }

    static func testFiles(_ chapter: Chapter) -> [String] {
        let folder = Fixture.packageRoot.appendingPathComponent("Tests/\(chapter.testModule)")
        return (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    static func decide(_ fixture: String, _ chapter: Chapter, leftOutBefore: [ExcludedExercise] = [],
                       filesPresent: Bool = true) -> Builder.Decision? {
        Builder.decide(Builder.compilerErrors(in: Fixture.text(fixture)), in: chapter, sources: .exercises,
                       testFiles: testFiles(chapter), leftOutBefore: leftOutBefore, filesPresent: filesPresent)
    }

    @Test("the 4.5 starter: only 4.5 is left out, with the compiler's error in its own file; other chapters untouched")
    func starterOf4_5() throws {
        let four = try Self.chapter(4)
        guard case let .leaveOut(left)? = Self.decide("compile-error-4.5-build-output.txt", four) else {
            Issue.record("expected 4.5 to be left out, got \(String(describing: Self.decide("compile-error-4.5-build-output.txt", four)))")
            return
        }
        #expect(left.map(\.exercise.id) == ["4.5"])
        let error = try #require(left.first?.errors.first)
        #expect(left.first?.errors.count == 1)
        #expect(error.file == "/work/learner/Exercises/Chapter4SerialQueues/AuthToken.swift")
        #expect(error.line == 38)
        #expect(error.message == "missing return in getter expected to return 'String'")
        #expect(try #require(left.first).isCaughtAsExpected)
        for other in Fixture.workbook.chapters where other.number != 4 {
            #expect(Self.decide("compile-error-4.5-build-output.txt", other) == nil)
        }
    }

    @Test("an error in one exercise file of Chapter 1: that exercise alone")
    func chapterOneExercise() throws {
        let one = try Self.chapter(1)
        let decision = Self.decide("compile-error-build-output.txt", one)
        guard case let .leaveOut(left)? = decision else {
            Issue.record("expected 1.1 to be left out, got \(String(describing: decision))")
            return
        }
        #expect(left.map(\.exercise.id) == ["1.1"])
    }

    @Test("errors in the test module (an exercise file that compiles but lost its type): the whole chapter goes")
    func errorsInTests() throws {
        let three = try Self.chapter(3)
        let decision = Self.decide("compile-error-ch3-tests-build-output.txt", three)
        guard case let .drop(errors)? = decision else {
            Issue.record("expected Chapter 3 to be dropped, got \(String(describing: decision))")
            return
        }
        #expect(!errors.isEmpty)
        #expect(errors.allSatisfy { $0.file.contains("/Tests/Chapter3SemaphoresTests/") })
    }

    @Test("a type error in 4.4 hides 4.5's missing return; found only after 4.4 is left out, it drops the chapter with 4.4's errors")
    func secondRoundDropsTheChapter() throws {
        let four = try Self.chapter(4)
        let first = Self.decide("compile-error-4.4-hides-4.5-build-output.txt", four)
        guard case let .leaveOut(left)? = first else {
            Issue.record("expected 4.4 to be left out first, got \(String(describing: first))")
            return
        }
        #expect(left.map(\.exercise.id) == ["4.4"])
        let second = Self.decide("compile-error-4.5-build-output.txt", four, leftOutBefore: left)
        #expect(second == .drop(left.flatMap(\.errors)))
    }

    @Test("a missing exercise file, or an error in every exercise: the whole chapter goes")
    func wholeChapter() throws {
        let four = try Self.chapter(4)
        guard case .drop? = Self.decide("compile-error-4.5-build-output.txt", four, filesPresent: false) else {
            Issue.record("a chapter with a missing exercise file must be dropped")
            return
        }
        let everywhere = four.exercises.map { exercise in
            CompilerError(file: "/p/Exercises/\(four.name)/\(exercise.file)", line: 1, column: 1, message: "x")
        }
        let decision = Builder.decide(everywhere, in: four, sources: .exercises, testFiles: Self.testFiles(four),
                                      leftOutBefore: [], filesPresent: true)
        #expect(decision == .drop(everywhere))
    }

    @Test("an exercise whose suite has no test file of its own cannot be left out alone")
    func noTestFile() throws {
        let four = try Self.chapter(4)
        let errors = Builder.compilerErrors(in: Fixture.text("compile-error-4.5-build-output.txt"))
        let decision = Builder.decide(errors, in: four, sources: .exercises,
                                      testFiles: Self.testFiles(four).filter { $0 != "Exercise4_5Tests.swift" },
                                      leftOutBefore: [], filesPresent: true)
        #expect(decision == .drop(errors))
    }

    @Test("a suite's test files: <Suite>.swift and <Suite>+<part>.swift, nothing else")
    func suiteFiles() {
        let files = ["Exercise4_5Tests.swift", "Exercise4_5Tests+Races.swift", "Exercise4_50Tests.swift",
                     "Exercise4_5TestsOld.swift", "Children.swift", "Exercise4_5Tests+Notes.md"]
        #expect(Builder.testFiles(ofSuite: "Exercise4_5Tests", in: files) == ["Exercise4_5Tests+Races.swift", "Exercise4_5Tests.swift"])
    }

    @Test("4.5 is left out as its file and its suite")
    func workbookFollowsTheConvention() throws {
        let four = try Self.chapter(4)
        let exercise = try #require(four.exercises.first { $0.id == "4.5" })
        let builder = Builder(workbook: Fixture.workbook, platform: Platform(.process), sources: .exercises, scratchPath: URL(fileURLWithPath: "/tmp/unused"))
        #expect(builder.exclusion(of: four, exercise)
            == ["Chapter4SerialQueues/AuthToken.swift", "Chapter4SerialQueuesTests/Exercise4_5Tests.swift"])
    }

    @Test("only other tests' files may not name an exercise's types: no other test file of Chapter 4 names AuthToken")
    func otherTestsDoNotUseTheExercise() throws {
        let four = try Self.chapter(4)
        let folder = Fixture.packageRoot.appendingPathComponent("Tests/\(four.testModule)")
        for file in Self.testFiles(four) where file != "Exercise4_5Tests.swift" && file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("AuthToken"), "\(file) names AuthToken: leaving 4.5 out would break it")
        }
    }

    @Test("the check result of an exercise left out: compile, at the learner's file and line, with the compiler's words; its neighbours untouched")
    func checkResultOfExcluded() throws {
        let four = try Self.chapter(4)
        let errors = Builder.compilerErrors(in: Fixture.text("compile-error-4.5-build-output.txt"))
        let excluded = try #require(four.exercises.first { $0.id == "4.5" })
        var result = CheckReport.Result(chapter: four, exercise: excluded)
        result.compileErrors = errors
        #expect(result.kind == .compile)
        #expect(result.findings.count == 1)
        #expect(result.findings.first?.message == "missing return in getter expected to return 'String'")
        #expect(result.findings.first?.location == "Exercises/Chapter4SerialQueues/AuthToken.swift:38")
        let neighbour = CheckReport.Result(chapter: four, exercise: four.exercises[0])
        let report = CheckReport(results: [neighbour, result], runs: 1, buildSeconds: 0, seconds: 0)
        let text = report.rendered(style: .plain, verbose: false, workbook: Fixture.workbook)
        #expect(text.contains("4.5 The recipe's token, as printed — does not compile"))
        #expect(text.contains("missing return in getter expected to return 'String'"))
        // The compiler's form, column and excerpt: the line an editor reads, then the code under it as printed.
        #expect(text.contains("""
            \nExercises/Chapter4SerialQueues/AuthToken.swift:38:13: error: missing return in getter expected to return 'String'
            36 |         get {
            37 |             dispatchPrecondition(condition: .notOnQueue(queue))
            38 |             queue.sync {
               |             |- error: missing return in getter expected to return 'String'
               |             `- note: did you mean to return the last expression?
            39 |                 return cachedToken
            40 |             }
                  edit
            """), "\(text)")
    }

    @Test("what a build left out is remembered while its chapter's files stay the same, and forgotten when one changes")
    func rememberedExclusions() throws {
        let four = try Self.chapter(4)
        let exercise = try #require(four.exercises.first { $0.id == "4.5" })
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-memo-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("Exercises/\(four.name)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Tests/\(four.testModule)"), withIntermediateDirectories: true)
        try Data("// package".utf8).write(to: root.appendingPathComponent("Package.swift"))
        let file = folder.appendingPathComponent(exercise.file)
        try Data("var broken: Int { 0; 1 }".utf8).write(to: file)

        let workbook = Workbook(root: root, chapters: Fixture.workbook.chapters)
        let builder = Builder(workbook: workbook, platform: Platform(.process), sources: .exercises, scratchPath: root.appendingPathComponent(".build-check"))
        #expect(builder.rememberedExclusions(of: workbook.chapters).isEmpty, "nothing remembered yet")
        let errors = [CompilerError(file: file.path, line: 1, column: 1, message: "missing return")]
        builder.remember([ExcludedExercise(chapter: four, exercise: exercise, errors: errors)])
        let remembered = builder.rememberedExclusions(of: workbook.chapters)
        #expect(remembered == [ExcludedExercise(chapter: four, exercise: exercise, errors: errors)])
        #expect(builder.rememberedExclusions(of: workbook.chapters.filter { $0.number != 4 }).isEmpty,
                "only for chapters this build builds")
        // The solutions' build keeps its own note.
        #expect(Builder(workbook: workbook, platform: Platform(.process), sources: .solutions, scratchPath: builder.scratchPath)
            .rememberedExclusions(of: workbook.chapters).isEmpty)

        try Data("var fixed: Int { 1 }".utf8).write(to: file)
        #expect(builder.rememberedExclusions(of: workbook.chapters).isEmpty, "an edit in the chapter: try it again")
        builder.remember([])
        #expect(!FileManager.default.fileExists(atPath: builder.scratchPath.appendingPathComponent("workbook-left-out-exercises.json").path))
    }
}

/// The maintainers' commands asked of the tool a learner builds, which leaves their layer out: what
/// it builds and how it hands over (``MaintainersBuild``). The hand-over itself replaces the process,
/// so CI's `swift run workbook selftest` proves it; here, what it starts and how it fails.
@Suite("The tool with the maintainers' commands")
struct MaintainersBuildTests {
    @Test("it builds the package's tool with WORKBOOK_ENGINE=maintainers and asks SwiftPM where, in the package's own scratch folder")
    func invocations() {
        let build = MaintainersBuild(root: URL(fileURLWithPath: "/work/learner"), platform: Platform(.linux, searchPath: "/opt/none"))
        #expect(build.build.arguments == ["build", "--product", "workbook", "--package-path", "/work/learner"])
        #expect(build.binPath.arguments == ["build", "--show-bin-path", "--package-path", "/work/learner"])
        #expect(!build.build.arguments.contains("--scratch-path"), "where `swift run workbook` builds")
        #expect(MaintainersBuild.buildEnvironment == [BuildSettings.engine: BuildSettings.maintainers])
    }

    @Test("the tool it starts gets this process's environment, marked, and not the build's WORKBOOK_ENGINE")
    func relaunchEnvironment() {
        let environment = MaintainersBuild.relaunchEnvironment(["PATH": "/usr/bin", "WORKBOOK_ROOT": "/work/learner"])
        #expect(environment == ["PATH": "/usr/bin", "WORKBOOK_ROOT": "/work/learner", "WORKBOOK_RELAUNCHED": "1"])
        #expect(WorkbookEnvironment(environment).relaunched)
        #expect(environment[BuildSettings.engine] == nil)
    }

    @Test("a failed build throws SwiftPM's output, and nothing is started")
    func failedBuild() throws {
        let bin = try ClassroomFixture.scratch("maintainers-build")
        defer { try? FileManager.default.removeItem(at: bin) }
        let swift = bin.appendingPathComponent("swift")
        try ClassroomFixture.write("#!/bin/sh\necho \"error: no such module 'WorkbookMaintainer' ($WORKBOOK_ENGINE)\"\nexit 1\n", to: "swift", under: bin)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        let build = MaintainersBuild(root: bin, platform: Platform(.linux, searchPath: bin.path))
        #expect(build.build.executable == swift.path)
        do {
            try build.relaunch(["workbook", "selftest"])
        } catch let WorkbookError.maintainersBuildFailed(output) {
            #expect(output.contains("no such module 'WorkbookMaintainer' (maintainers)"), "\(output)")
            #expect(WorkbookError.maintainersBuildFailed(output: output).description.contains("WORKBOOK_ENGINE=maintainers swift build --product workbook"))
        }
    }
}

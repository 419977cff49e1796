import Foundation

/// Which code a build compiles into the chapter modules.
public enum SourceSet: String, Sendable {
    case exercises
    case solutions

    /// The folder the code comes from.
    public var folder: String { self == .exercises ? "Exercises" : "Solutions" }
}

/// A compiler error, located.
public struct CompilerError: Sendable, Equatable {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String
}

/// The result of building the chapters and their tests.
public struct BuildResult: Sendable {
    /// The chapters that made it into the test binary.
    public var built: [Chapter]
    /// Chapters left out because they do not compile, with their errors.
    public var broken: [(chapter: Chapter, errors: [CompilerError])]
    /// How to run the tests of this build, when anything was built.
    public var launch: TestLaunch?
    public var seconds: Double
    /// Output of the last build attempt (for --verbose and for failures outside any chapter).
    public var output: String
}

/// Builds the chapters under the Thread Sanitizer, leaving out chapters that do not compile.
///
/// One chapter that fails to compile fails the whole test build, so the builder reads the errors,
/// names the chapters they are in, and builds again without them (Package.swift reads
/// `WORKBOOK_ONLY`), until what is left compiles.
public struct Builder: Sendable {
    public var workbook: Workbook
    public var sources: SourceSet
    /// Where the build goes, e.g. `.build-check`.
    public var scratchPath: URL
    /// Called with a line of progress for the user.
    public var progress: @Sendable (String) -> Void
    /// Whether to report SwiftPM's every step too (for a terminal's one updating line).
    public var showsSteps = false

    public init(workbook: Workbook, sources: SourceSet, scratchPath: URL, progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.workbook = workbook
        self.sources = sources
        self.scratchPath = scratchPath
        self.progress = progress
    }

    /// Builds `chapters` (all by default) and their tests.
    public func build(_ chapters: [Chapter]? = nil) throws -> BuildResult {
        let start = Date()
        var remaining = chapters ?? workbook.chapters
        var broken: [(chapter: Chapter, errors: [CompilerError])] = []
        while true {
            let only = remaining.count == workbook.chapters.count ? nil : remaining.map(\.shortName)
            let result = try runBuild(only: only)
            if result.termination == .exited(0) {
                let launch = TestLaunch(packageRoot: workbook.root, scratchPath: scratchPath, sources: sources, only: only)
                return BuildResult(built: remaining, broken: broken, launch: launch,
                                   seconds: Date().timeIntervalSince(start), output: result.output)
            }
            if let missing = Self.missingSanitizer(result.output) {
                throw WorkbookError.toolFailed(missing)
            }
            let errors = Self.compilerErrors(in: result.output)
            var newlyBroken: [(chapter: Chapter, errors: [CompilerError])] = []
            for chapter in remaining {
                let mine = errors.filter { error in
                    error.file.contains("/\(sources.folder)/\(chapter.name)/") || error.file.contains("/Tests/\(chapter.testModule)/")
                }
                if !mine.isEmpty { newlyBroken.append((chapter, mine)) }
            }
            guard !newlyBroken.isEmpty else {
                let summary = errors.prefix(5).map { "\($0.file):\($0.line): \($0.message)" }.joined(separator: "\n")
                throw WorkbookError.toolFailed(
                    "The build failed outside the chapters, so nothing can be graded.\n"
                        + (summary.isEmpty ? Grader.tail(of: result.output, lines: 30) : summary))
            }
            for item in newlyBroken {
                progress("Chapter \(item.chapter.number) does not compile; grading the other chapters without it.")
            }
            broken += newlyBroken
            remaining.removeAll { chapter in newlyBroken.contains { $0.chapter.name == chapter.name } }
            if remaining.isEmpty {
                return BuildResult(built: [], broken: broken, launch: nil,
                                   seconds: Date().timeIntervalSince(start), output: result.output)
            }
        }
    }

    private func runBuild(only: [String]?) throws -> ChildResult {
        let settings = TestLaunch(packageRoot: workbook.root, scratchPath: scratchPath, sources: sources, only: only)
        var onLine: (@Sendable (String) -> Void)?
        if showsSteps {
            let progress = progress
            onLine = { line in
                guard let step = Builder.buildStep(line) else { return }
                progress("Building under the Thread Sanitizer: step \(step.done) of \(step.of)")
            }
        }
        return try ChildProcess.run(
            "swift",
            ["build", "--build-tests", "--sanitize=thread",
             "--package-path", workbook.root.path, "--scratch-path", scratchPath.path],
            environment: settings.buildEnvironment, timeLimit: 1_800,
            onLine: onLine)
    }

    /// SwiftPM's `[118/121] Compiling …` as (118, 121).
    static func buildStep(_ line: String) -> (done: Int, of: Int)? {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return nil }
        let numbers = line[line.index(after: line.startIndex)..<close].split(separator: "/").compactMap { Int($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    /// Every `file:line:col: error: message` line, once each.
    public static func compilerErrors(in output: String) -> [CompilerError] {
        var seen = Set<String>()
        var errors: [CompilerError] = []
        for line in output.split(separator: "\n") {
            guard let range = line.range(of: ": error: ") else { continue }
            let location = line[..<range.lowerBound].split(separator: ":")
            guard location.count >= 3, let lineNumber = Int(location[location.count - 2]),
                  let column = Int(location[location.count - 1]) else { continue }
            let file = location.dropLast(2).joined(separator: ":")
            let message = String(line[range.upperBound...])
            let key = "\(file):\(lineNumber):\(column):\(message)"
            guard seen.insert(key).inserted else { continue }
            errors.append(CompilerError(file: file, line: lineNumber, column: column, message: message))
        }
        return errors
    }

    /// A toolchain without the Thread Sanitizer, said plainly.
    static func missingSanitizer(_ output: String) -> String? {
        let signs = ["unsupported option '-sanitize=thread'", "sanitizer is unsupported",
                     "libclang_rt.tsan", "cannot find -lclang_rt.tsan"]
        guard signs.contains(where: output.contains) else { return nil }
        return "This Swift toolchain has no Thread Sanitizer, and the workbook grades every exercise under it. Install a toolchain from swift.org (Linux x86_64/arm64 or macOS; Xcode's toolchain on macOS) — TSan is part of it."
    }
}

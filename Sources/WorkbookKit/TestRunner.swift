import Foundation

/// Runs the built test binary on some exercises and grades them.
///
/// Exercises are run together in one process (fast), with Swift Testing's event stream written to a
/// file the grader names and TSan's reports written to files of their own. When that run cannot say
/// which exercise something belongs to — the process crashed or hung, or a report names none of their
/// files — the unsettled exercises are run again, each in a process of its own.
public struct TestRunner: Sendable {
    public var launch: TestLaunch
    public var grader: Grader
    /// Seconds a process may take in all before the watchdog kills its group: base plus per exercise.
    public var baseTimeLimit: Double = 30
    public var timeLimitPerExercise: Double = 5
    /// Seconds the event stream may stay unchanged before the run counts as stuck. Every wait in a
    /// suite is bounded far below this, so a quiet stream means code that never returns.
    public var quietLimit: Double = 10

    public init(launch: TestLaunch) {
        self.launch = launch
        self.grader = Grader(sources: launch.sources)
    }

    /// Grades `exercises`, isolating where needed; returns verdicts in the order given.
    public func run(_ exercises: [(chapter: Chapter, exercise: Exercise)]) throws -> [ExerciseVerdict] {
        guard !exercises.isEmpty else { return [] }
        let artifacts = try runOnce(exercises)
        let outcome = grader.grade(exercises, artifacts)
        var verdicts = locatingCrashes(outcome.verdicts, artifacts, alone: exercises.count == 1)
        for item in outcome.isolate {
            let run = try runOnce([item])
            verdicts += locatingCrashes(grader.grade([item], run).verdicts, run, alone: true)
        }
        return exercises.compactMap { item in verdicts.first { $0.exercise.id == item.exercise.id } }
    }

    /// One process over `exercises`.
    public func runOnce(_ exercises: [(chapter: Chapter, exercise: Exercise)]) throws -> RunArtifacts {
        try runBinary(filters: exercises.map { Self.filter(forSuiteOf: $0.chapter, $0.exercise) },
                      timeLimit: baseTimeLimit + timeLimitPerExercise * Double(exercises.count),
                      label: exercises.map(\.exercise.id).joined(separator: "+"))
    }

    /// One test process over the tests the `filters` select, with the event stream and
    /// TSan's reports written to files of a fresh folder, and the watchdog on.
    func runBinary(filters: [String], timeLimit: Double, label: String) throws -> RunArtifacts {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("workbook-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = folder.appendingPathComponent("events.jsonl")

        var testing = ["--event-stream-output-path", events.path, "--event-stream-version", "6.3"]
        for filter in filters { testing += ["--filter", filter] }
        let command = launch.command(testing)
        let environment = command.environment.merging(Self.sanitizerEnvironment(logFolder: folder)) { _, sanitizer in sanitizer }

        var result = try ChildProcess.run(command.executable, command.arguments, environment: environment,
                                          timeLimit: timeLimit, idleLimit: (events, quietLimit))
        // Newer kernels randomize memory more than TSan supports; running without ASLR fixes it.
        if result.output.contains("ThreadSanitizer: unexpected memory mapping"), let setarch = Self.setarch {
            try? FileManager.default.removeItem(at: events)
            result = try ChildProcess.run(setarch, [Self.machine, "-R", command.executable] + command.arguments,
                                          environment: environment, timeLimit: timeLimit, idleLimit: (events, quietLimit))
        }
        if let keep = ProcessInfo.processInfo.environment["WORKBOOK_KEEP_ARTIFACTS"], !keep.isEmpty {
            keepArtifacts(folder, result, in: URL(fileURLWithPath: keep), label: label)
        }
        return RunArtifacts(
            events: EventStream(contentsOf: events),
            reports: TSanReport.reports(inFolder: folder),
            termination: result.termination,
            output: result.output,
            seconds: result.seconds)
    }

    /// The environment of every test process: TSan's reports to files (or nowhere), no exit sleep
    /// (TSan otherwise sleeps a second at every exit, exit-test children too), no Swift backtracer
    /// (under TSan it can hang or leave processes behind), and the mark that the grader is reading.
    static func sanitizerEnvironment(logFolder: URL?) -> [String: String] {
        var options = "log_path=\(logFolder.map { "\($0.path)/tsan" } ?? "/dev/null") halt_on_error=0 history_size=4 atexit_sleep_ms=0"
        if let symbolizer { options += " external_symbolizer_path=\(symbolizer)" }
        // WORKBOOK_GRADER: the suites' race trait leaves the reports to the grader, which reads them.
        return ["TSAN_OPTIONS": options, "SWIFT_BACKTRACE": "enable=no", "WORKBOOK_GRADER": "1"]
    }

    /// Points each crashed exercise at the learner's line that trapped (see ``crashStack(filter:inChild:learnerFile:)``).
    ///
    /// A crash in an exit test's child process (the suites run code that may trap there) is found by
    /// running that one test again; a crash of the test process itself, only when that process ran
    /// the exercise alone (otherwise the exercise is isolated and run alone next).
    private func locatingCrashes(_ verdicts: [ExerciseVerdict], _ run: RunArtifacts, alone: Bool) -> [ExerciseVerdict] {
        verdicts.map { verdict in
            guard verdict.kind == .crash else { return verdict }
            let suite = "\(verdict.chapter.testModule).\(verdict.exercise.suite)"
            let learnerFile = "/" + Layout.exerciseFile(verdict.chapter, verdict.exercise, in: grader.sources)
            if case .signaled = run.termination {
                guard alone else { return verdict }
                let stack = crashStack(filter: Self.filter(forSuiteOf: verdict.chapter, verdict.exercise), inChild: false, learnerFile: learnerFile)
                return stack.map { verdict.locatingCrash($0) } ?? verdict
            }
            guard let issue = run.events.issues.first(where: { $0.kind == .crash && $0.testID.hasPrefix(suite + "/") }),
                  let stack = crashStack(filter: Self.filter(forTest: issue.testID), inChild: true, learnerFile: learnerFile)
            else { return verdict }
            return verdict.locatingCrash(stack, test: run.events.names[issue.testID])
        }
    }

    /// Runs the tests `filter` selects once more under gdb, when gdb is installed, to find where the
    /// crash happened: in the test process, or (`inChild`) in the first child process it starts —
    /// an exit test's, with follow-fork-mode.
    func crashStack(filter: String, inChild: Bool, learnerFile: String) -> CrashStack? {
        // A debugger needs the test executable itself (Linux); on macOS libdispatch prints why it trapped.
        guard let gdb = findInPath("gdb"), let testBinary = launch.testBinary else { return nil }
        let follow = inChild ? ["-ex", "set follow-fork-mode child", "-ex", "set detach-on-fork on"] : []
        let arguments = ["-q", "-batch"] + follow + ["-ex", "run", "-ex", "bt", "--args", testBinary.path,
                         "--testing-library", "swift-testing", "--filter", filter]
        guard let result = try? ChildProcess.run(gdb, arguments, environment: Self.sanitizerEnvironment(logFolder: nil),
                                                 timeLimit: 60) else { return nil }
        return CrashStack(gdbOutput: result.output, learnerFileSuffix: learnerFile)
    }

    /// The `--filter` that selects the tests of `exercise`'s suite.
    static func filter(forSuiteOf chapter: Chapter, _ exercise: Exercise) -> String {
        NSRegularExpression.escapedPattern(for: "\(chapter.testModule).\(exercise.suite)") + "(/|$)"
    }

    /// The `--filter` that selects exactly the test `testID` names
    /// (`Module.Suite/name()/File.swift:7:6`, whose last part is where it is declared).
    static func filter(forTest testID: String) -> String {
        var parts = testID.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count > 2, parts.last?.contains(".swift:") == true { parts.removeLast() }
        // Like the suites' filters: no `^` (it matches nothing), and `(/|$)` so `run()` is not `run()2`.
        return NSRegularExpression.escapedPattern(for: parts.joined(separator: "/")) + "(/|$)"
    }

    /// For maintainers recording fixtures: copies a run's raw files (event stream, TSan logs, output,
    /// how it ended) into a new folder under `destination`.
    private func keepArtifacts(_ folder: URL, _ result: ChildResult, in destination: URL, label: String) {
        let name = label + "-" + UUID().uuidString.prefix(6)
        let target = destination.appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        try? FileManager.default.copyItem(at: folder, to: target)
        try? result.output.write(to: target.appendingPathComponent("output.txt"), atomically: true, encoding: .utf8)
        try? result.termination.description.write(to: target.appendingPathComponent("termination.txt"), atomically: true, encoding: .utf8)
    }

    /// llvm-symbolizer next to the toolchain, for file:line in TSan's reports.
    static let symbolizer: String? = findInPath("llvm-symbolizer")
    static let setarch: String? = findInPath("setarch")
    static var machine: String {
        var info = utsname()
        uname(&info)
        return withUnsafeBytes(of: &info.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// The first executable called `name` on PATH.
func findInPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
        let candidate = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

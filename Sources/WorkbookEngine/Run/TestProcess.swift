import Foundation
import WorkbookCore
import WorkbookWire

/// Runs test processes: the seam between starting processes (platform, files, environment, the
/// watchdog) and the grading policy of ``TestRunner``, which tests drive with recorded runs.
package protocol TestProcess: Sendable {
    /// Which code the tests run against.
    var sources: SourceSet { get }
    /// The package whose build the tests run, where the graded files are read; `nil` for a
    /// recorded run.
    var packageRoot: URL? { get }
    /// One process over the tests `filters` select, within `timeLimit` seconds, running at most
    /// `testsAtOnce` test cases at the same time; `label` names its artifacts when they are kept.
    func run(filters: [String], timeLimit: Double, testsAtOnce: Int, label: String) throws -> RunArtifacts
    /// Where a crashed test trapped, found by running the tests `filter` selects again under a
    /// debugger — in the test process, or (`inChild`) in the first child it starts — or from the
    /// crash report `run` left (Darwin); `nil` when that cannot be found here.
    func crashStack(filter: String, inChild: Bool, learnerFile: String, after run: RunArtifacts) -> CrashStack?
}

/// The real test processes of a build: the test executable (Linux) or `swift test --skip-build`
/// (macOS), with TSan's reports to files, the event stream, and the watchdog.
package struct LaunchedTestProcess: TestProcess {
    var launch: TestLaunch
    /// Whose ways of symbolizing, locating crashes and reading traps apply: the launch's.
    var platform: Platform { launch.platform }
    /// The toolchain whose event-stream version the runs ask for: the platform's.
    var toolchain: Toolchain
    /// Seconds the event stream may stay unchanged before the run counts as stuck. Every wait in a
    /// suite is bounded far below this, so a quiet stream means code that never returns.
    package var quietLimit: Double = 10
    /// How many scenarios the suites' explored tests run (`WORKBOOK_EXPLORE`): a time per test for
    /// `check`, fixed counts for the self-test and a classroom grade.
    var exploration: Budget = .check
    /// Where each run's artifacts are kept (``WorkbookEnvironment/keepArtifacts``, which the command
    /// line passes down); `nil`: nowhere.
    package var artifactsKeptIn: URL?

    package init(launch: TestLaunch) {
        self.launch = launch
        self.toolchain = launch.platform.toolchainInUse
    }

    package var sources: SourceSet { launch.sources }
    package var packageRoot: URL? { launch.packageRoot }

    /// One test process over the tests the `filters` select, with the event stream and
    /// TSan's reports written to files of a fresh folder, and the watchdog on.
    package func run(filters: [String], timeLimit: Double, testsAtOnce: Int, label: String) throws -> RunArtifacts {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("workbook-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try SanitizerSettings.suppressionsFile.write(to: SanitizerSettings.suppressionsPath(in: folder), atomically: true, encoding: .utf8)
        let command = invocation(filters: filters, testsAtOnce: testsAtOnce, in: folder)
        let events = command.events, environment = command.environment
        let started = Date()

        let stopping = launch.stopping(marker: folder.path)
        var result = try ChildProcess.run(command.executable, command.arguments, environment: environment,
                                          timeLimit: timeLimit, idleLimit: (events, quietLimit), stopping: stopping)
        if let again = Self.relaunch(command.executable, command.arguments, after: result.output, setarch: platform.executable("setarch")) {
            try? FileManager.default.removeItem(at: events)
            result = try ChildProcess.run(again.executable, again.arguments,
                                          environment: environment, timeLimit: timeLimit, idleLimit: (events, quietLimit),
                                          stopping: stopping)
        }
        if let keep = artifactsKeptIn {
            keepArtifacts(folder, result, in: keep, label: label)
        }
        var artifacts = RunArtifacts(
            events: EventStream(contentsOf: events),
            reports: TSanReport.reports(inFolder: folder),
            termination: launch.testProcessTermination(result.termination, output: result.output),
            output: result.output,
            seconds: result.seconds)
        artifacts.started = started
        artifacts.launcherPID = result.pid
        return artifacts
    }

    /// What one run starts, with its event stream and TSan's reports in `folder`: the executable, its
    /// arguments and environment, and the event stream's file. Pure: it starts nothing.
    func invocation(filters: [String], testsAtOnce: Int, in folder: URL)
        -> (executable: String, arguments: [String], environment: [String: String], events: URL)
    {
        let events = folder.appendingPathComponent("events.jsonl")
        let testing = toolchain.eventStreamArguments(to: events.path) + filters.flatMap { ["--filter", $0] }
        let command = launch.command(testing)
        let environment = command.environment.merging(sanitizerEnvironment(logFolder: folder)) { _, sanitizer in sanitizer }
            .merging([GraderEnvironment.testsAtOnce: String(testsAtOnce), Budget.variable: exploration.description]) { _, new in new }
        return (command.executable, command.arguments, environment, events)
    }

    /// The environment of every test process: TSan's reports to files (or nowhere), what TSan
    /// checks (``SanitizerSettings``; its suppressions from the folder's file, which `run` writes),
    /// no exit sleep (TSan otherwise sleeps a second at every exit, exit-test children too), what
    /// the platform adds (on Darwin, the runtime kept for exit tests' children), no Swift backtracer
    /// (under TSan it can hang or leave processes behind), and the mark that the grader is reading.
    func sanitizerEnvironment(logFolder: URL?) -> [String: String] {
        var options = [SanitizerSettings.option("log_path", path: logFolder.map { "\($0.path)/tsan" } ?? "/dev/null"),
                       "halt_on_error=0", "history_size=4", ChildSanitizer.quickExit, SanitizerSettings.options]
        if let logFolder { options.append(SanitizerSettings.option("suppressions", path: SanitizerSettings.suppressionsPath(in: logFolder).path)) }
        if let symbolizer = platform.symbolizer { options.append(SanitizerSettings.option("external_symbolizer_path", path: symbolizer)) }
        options += platform.sanitizerOptions
        // The suites' race trait leaves the reports to the grader, which reads them.
        return ["TSAN_OPTIONS": options.joined(separator: " "), "SWIFT_BACKTRACE": "enable=no", GraderEnvironment.grading: "1"]
    }

    /// Where a crashed test trapped: on Linux, the tests `filter` selects run once more under gdb
    /// (when it is installed) — in the test process, or (`inChild`) in the first child process it
    /// starts, an exit test's, with follow-fork-mode; on Darwin, the crash report the system wrote
    /// for the run.
    package func crashStack(filter: String, inChild: Bool, learnerFile: String, after run: RunArtifacts) -> CrashStack? {
        switch platform.crashLocator {
        case .none:
            return nil
        case let .crashReports(folder):
            // An exit test's child leaves no report to find (see `placesCrashesInExitTestChildren`).
            guard !inChild || platform.placesCrashesInExitTestChildren else { return nil }
            return CrashReport.newest(in: folder, since: run.started ?? .distantPast, processNames: CrashReport.testRunnerNames,
                                      parentPID: run.launcherPID)
                .flatMap { CrashStack(crashReport: $0, learnerFileSuffix: learnerFile) }
        case let .debugger(gdb):
            // A debugger needs the test executable itself, which only the binary launch has.
            guard let testBinary = launch.testBinary else { return nil }
            let follow = inChild ? ["-ex", "set follow-fork-mode child", "-ex", "set detach-on-fork on"] : []
            let arguments = ["-q", "-batch"] + follow + ["-ex", "run", "-ex", "bt", "--args", testBinary.path]
                + TestLaunch.swiftTestingOnly + ["--filter", filter]
            guard let result = try? ChildProcess.run(gdb, arguments, environment: sanitizerEnvironment(logFolder: nil),
                                                     timeLimit: 60) else { return nil }
            return CrashStack(gdbOutput: result.output, learnerFileSuffix: learnerFile)
        }
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

    /// The one retry of a launch: the same command without address-space randomization
    /// (`setarch <machine> -R`), when its `output` says TSan could not start because this kernel
    /// randomizes memory more than TSan supports and `setarch` (its path) is installed; else `nil`.
    static func relaunch(_ executable: String, _ arguments: [String], after output: String, setarch: String?,
                         machine: String = machine) -> (executable: String, arguments: [String])? {
        guard output.contains("ThreadSanitizer: unexpected memory mapping"), let setarch else { return nil }
        return (setarch, [machine, "-R", executable] + arguments)
    }

    static var machine: String {
        var info = utsname()
        uname(&info)
        return withUnsafeBytes(of: &info.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

import Foundation
import Testing
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

/// Plays one recorded run back for every process, and remembers which filters it was given.
final class ReplayedRuns: TestProcess, @unchecked Sendable {
    let sources = SourceSet.exercises
    let packageRoot: URL? = nil
    private let run: RunArtifacts
    private let asked = Locked<[(filters: [String], testsAtOnce: Int, timeLimit: Double)]>([])
    var filters: [[String]] { asked.value.map(\.filters) }
    /// How many test cases each process was told it may run at once.
    var testsAtOnce: [Int] { asked.value.map(\.testsAtOnce) }
    /// The watchdog's bound of each process, in seconds.
    var timeLimits: [Double] { asked.value.map(\.timeLimit) }

    init(_ run: RunArtifacts) { self.run = run }

    func run(filters: [String], timeLimit: Double, testsAtOnce: Int, label: String) throws -> RunArtifacts {
        asked.withLock { $0.append((filters, testsAtOnce, timeLimit)) }
        return run
    }

    func crashStack(filter: String, inChild: Bool, learnerFile: String, after run: RunArtifacts) -> CrashStack? { nil }
}

/// Plays one recorded run back as a real test process does: its TSan log parsed afresh for each
/// process, and counted. Each parsed report's text is then replaced by ``text``, so nothing after the
/// process can get a report back by parsing text again.
final class ParsedRuns: TestProcess, @unchecked Sendable {
    static let text = "(a report's text, not to be parsed again)"
    let sources = SourceSet.exercises
    /// `nil`: a recorded run, with no package whose files the runner could read.
    let packageRoot: URL?
    private let artifacts: RunArtifacts
    private let log: String
    let parses = Locked(0)
    let processes = Locked(0)

    init(_ name: String, _ termination: Termination, packageRoot: URL? = nil) {
        artifacts = Fixture.run(name, termination)
        log = Fixture.text("\(name)/tsan.log")
        self.packageRoot = packageRoot
    }

    func run(filters: [String], timeLimit: Double, testsAtOnce: Int, label: String) throws -> RunArtifacts {
        processes.withLock { $0 += 1 }
        var run = artifacts
        run.reports = TSanReport.parse(log).map { report in
            var report = report
            report.raw = Self.text
            return report
        }
        parses.withLock { $0 += 1 }
        return run
    }

    func crashStack(filter: String, inChild: Bool, learnerFile: String, after run: RunArtifacts) -> CrashStack? { nil }
}

@Suite("A whole check on recorded builds and runs (no compiler, no test process)")
struct CheckerTests {
    func checker(build: RecordedBuild, runs: any TestProcess) -> Checker {
        var checker = Checker(workbook: Fixture.workbook, platform: Platform(.process),
                              scratchPath: FileManager.default.temporaryDirectory.appendingPathComponent("wb-checker-\(UUID().uuidString)"))
        checker.packageBuild = build
        checker.testProcess = { _ in runs }
        return checker
    }

    @Test("check 1.1: only chapter 1 is built, 1.1's suite is run, its race is the verdict at the learner's line")
    func oneExercise() throws {
        let build = RecordedBuild { _, _ in (0, "Build complete!") }
        let runs = ReplayedRuns(Fixture.run("race-1.1", .exited(66)))
        let report = try checker(build: build, runs: runs).check(Fixture.items("1.1"))
        #expect(build.requests.map(\.only) == [["Chapter1"]], "the first verdict needs chapter 1 alone")
        #expect(runs.filters.first?.count == 1 && runs.filters.first?.first?.contains("Exercise1_1Tests") == true)
        let result = try #require(report.results.first)
        #expect(result.kind == .race)
        #expect(result.findings.first?.file?.hasSuffix("Exercises/Chapter1Latch/CountdownBlock.swift") == true)
    }

    @Test("one check reads the learner's file once and parses each report once; explain draws from what the check carried")
    func readOnceParsedOnce() throws {
        // The file as this check reads it: the text the run was recorded from, not what is on disk
        // (its line 18 is the racing decrement there, a comment here), so a drawing from another read
        // of the file would show another line 18.
        let recorded = Fixture.text("race-1.1/CountdownBlock.swift.txt")
        let reads = Locked<[String]>([])
        let runs = ParsedRuns("race-1.1", .exited(66))
        var checker = checker(build: RecordedBuild { _, _ in (0, "Build complete!") }, runs: runs)
        checker.readSource = { url in
            reads.withLock { $0.append(url.path) }
            return recorded
        }
        let report = try checker.check(Fixture.items("1.1"))
        #expect(reads.value.count == 1, "the learner's file is read once per check: \(reads.value)")
        #expect(reads.value.first?.hasSuffix("/Exercises/Chapter1Latch/CountdownBlock.swift") == true)
        #expect(runs.parses.value == runs.processes.value, "each process's reports are parsed once, by the process that wrote them")
        let result = try #require(report.results.first)
        let race = try #require(result.findings.first { $0.kind == .race })
        #expect(race.line == 18, "the grader placed the race on the file as read")
        #expect(race.report != nil && race.detail == ParsedRuns.text, "the finding carries the parsed report; its text is only for --verbose")
        // The reports' texts are placeholders: a drawing can come only from the carried reports and source.
        let drawing = try #require(report.explanations(racesOnly: true).first, "explain draws the carried report")
        #expect(drawing.contains("18│ toComplete -= 1"), "\(drawing)")
    }

    @Test("a chapter that does not compile is graded compile; nothing of it runs")
    func brokenChapter() throws {
        let build = RecordedBuild { _, _ in (1, Fixture.text("compile-error-ch3-tests-build-output.txt")) }
        let runs = ReplayedRuns(Fixture.run("clean-solutions", .exited(0)))
        let report = try checker(build: build, runs: runs).check(Fixture.items("3.1", "3.2"))
        #expect(report.results.allSatisfy { $0.kind == .compile })
        #expect(runs.filters.isEmpty, "no test process for a chapter that was not built")
    }
}

@Suite("What a test process is started with")
struct InvocationTests {
    @Test("a launch is retried once without address-space randomization, only when TSan could not map its memory and setarch is installed")
    func relaunch() {
        let refused = "FATAL: ThreadSanitizer: unexpected memory mapping 0x7f…"
        let again = LaunchedTestProcess.relaunch("/p/tests.xctest", ["--filter", "A"], after: refused, setarch: "/usr/bin/setarch", machine: "x86_64")
        #expect(again?.executable == "/usr/bin/setarch")
        #expect(again?.arguments == ["x86_64", "-R", "/p/tests.xctest", "--filter", "A"])
        #expect(LaunchedTestProcess.relaunch("/p/tests.xctest", [], after: refused, setarch: nil) == nil, "no setarch: the grader says why")
        #expect(LaunchedTestProcess.relaunch("/p/tests.xctest", [], after: "Test run with 3 tests passed", setarch: "/usr/bin/setarch") == nil)
    }

    let folder = URL(fileURLWithPath: "/tmp/run-1")

    func process(_ method: TestLaunch.Method, toolchain: Toolchain.Version = .init(6, 3)) -> LaunchedTestProcess {
        var launch = TestLaunch(platform: Platform(.process), method: method, packageRoot: URL(fileURLWithPath: "/p"), scratchPath: URL(fileURLWithPath: "/p/.build-check"),
                                sources: .exercises, only: ["Chapter1"])
        launch.withEngine = false
        var process = LaunchedTestProcess(launch: launch)
        process.toolchain = Toolchain(version: toolchain)
        return process
    }

    @Test("the test executable: Swift Testing only, the event stream in the run's folder, one --filter each, TSan's reports to files")
    func binary() {
        let run = process(.binary).invocation(filters: ["A(/|$)", "B(/|$)"], testsAtOnce: 3, in: folder)
        #expect(run.executable == "/p/.build-check/debug/WorkbookSuites")
        #expect(run.arguments == ["--testing-library", "swift-testing", "--event-stream-output-path", "/tmp/run-1/events.jsonl",
                                  "--event-stream-version", "6.3", "--filter", "A(/|$)", "--filter", "B(/|$)"])
        #expect(run.events.path == "/tmp/run-1/events.jsonl")
        let options = run.environment["TSAN_OPTIONS"] ?? ""
        #expect(options.contains("log_path=\"/tmp/run-1/tsan\"") && options.contains("halt_on_error=0"))
        #expect(!options.contains("strip_env"), "on Linux the runtime is linked into every test process, children too")
        #expect(run.environment["SWIFT_BACKTRACE"] == "enable=no" && run.environment["WORKBOOK_GRADER"] == "1")
        #expect(run.environment["WORKBOOK_TESTS_AT_ONCE"] == "3", "the process's share of the tests that may run at once")
        #expect(run.environment[BuildSettings.only] == nil, "a test executable needs no build settings")
    }

    @Test("`swift test --skip-build` (Darwin): the build's settings too, and the event-stream version of an older toolchain")
    func swiftTest() {
        let run = process(.swiftTest, toolchain: .init(6, 2)).invocation(filters: ["A(/|$)"], testsAtOnce: 1, in: folder)
        #expect(run.executable.hasSuffix("swift") && run.arguments.starts(with: ["test", "--skip-build"]))
        #expect(run.arguments.contains("0"), "Swift 6.2's SwiftPM takes a whole number")
        #expect(run.environment[BuildSettings.only] == "Chapter1" && run.environment[BuildSettings.engine] == BuildSettings.none)
        #expect(run.environment["TSAN_OPTIONS"]?.contains("log_path=\"/tmp/run-1/tsan\"") == true)
    }
}

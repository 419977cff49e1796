import Foundation
import Testing
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

/// A test process that plays recorded runs back: the batch first, then one recording per exercise
/// run alone; it remembers what it was asked.
private final class RecordedTestProcess: TestProcess, @unchecked Sendable {
    let sources = SourceSet.exercises
    var packageRoot: URL?
    private let batch: RunArtifacts
    private let alone: [String: RunArtifacts]
    private let asked = Locked<[[String]]>([])
    private let stacks = Locked<[(filter: String, inChild: Bool)]>([])
    var runs: [[String]] { asked.value }
    var stacksAsked: [(filter: String, inChild: Bool)] { stacks.value }

    init(batch: RunArtifacts, alone: [String: RunArtifacts]) {
        self.batch = batch
        self.alone = alone
    }

    func run(filters: [String], timeLimit: Double, testsAtOnce: Int, label: String) throws -> RunArtifacts {
        asked.withLock { $0.append(filters) }
        guard filters.count == 1 else { return batch }
        // A run of one exercise: the recording whose suite the filter names, else a clean empty run.
        return alone.first { filters[0].contains($0.key) }?.value
            ?? RunArtifacts(events: EventStream(), reports: [], termination: .exited(0), output: "")
    }

    func crashStack(filter: String, inChild: Bool, learnerFile: String, after run: RunArtifacts) -> CrashStack? {
        stacks.withLock { $0.append((filter, inChild)) }
        return CrashStack(gdbOutput: Fixture.text("trap-5.1/gdb-backtrace.txt"), learnerFileSuffix: learnerFile)
    }
}

@Suite("The test runner's policy, on recorded runs (no process started)")
struct TestRunnerTests {
    @Test("a batch that died: the unsettled exercises run again one by one; a crash alone is located at the learner's line")
    func isolation() throws {
        let items = Fixture.items("1.1", "1.2", "1.3", "5.1", "5.2", "5.3")
        let process = RecordedTestProcess(
            batch: Fixture.run("died-batch", .signaled(4)),
            alone: ["Exercise5_1Tests": Fixture.run("trap-5.1", .signaled(4))])
        var runner = TestRunner(process: process)
        runner.processesAtOnce = 1
        let verdicts = try runner.run(items)

        #expect(verdicts.map(\.exercise.id) == items.map(\.exercise.id), "one verdict each, in the order asked")
        #expect(process.runs.first?.count == 6, "first, one batch of all six")
        #expect(process.runs.dropFirst().allSatisfy { $0.count == 1 }, "then each unsettled exercise alone")
        #expect(process.runs.dropFirst().contains { $0[0].contains("Exercise5_1Tests") })
        let trapped = try #require(verdicts.first { $0.exercise.id == "5.1" })
        #expect(trapped.kind == .crash)
        #expect(trapped.findings.first?.location == "Exercises/Chapter5BuggyCounter/HitCounter.swift:12")
        #expect(process.stacksAsked.contains { $0.filter.contains("Exercise5_1Tests") && !$0.inChild },
                "the crash of the process itself is located by running that suite again")
    }

    @Test("a batch where everything settles runs once")
    func settled() throws {
        let process = RecordedTestProcess(batch: Fixture.run("clean-solutions", .exited(0)), alone: [:])
        var runner = TestRunner(process: process)
        runner.processesAtOnce = 1
        runner.grader = Grader(sources: .solutions)
        let items = Fixture.items("1.1", "1.2")
        let verdicts = try runner.run(items)
        #expect(process.runs.count == 1)
        #expect(verdicts.allSatisfy { $0.passed })
    }

    @Test("a graded file whose timed wait's result is never looked at, or that declares a sanitizer hook, fails as wrong at its line, whatever its tests said")
    func sourceFailures() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-source-failures-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let items = Fixture.items("1.1", "1.2")
        let file = root.appendingPathComponent(Layout.exerciseFile(items[0].chapter, items[0].exercise, in: .solutions))
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "import Dispatch\n@_cdecl(\"__tsan_default_options\") func quiet() {}\nfunc f(_ s: DispatchSemaphore) {\n    _ = s.wait(timeout: .now() + 30)\n}\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let process = RecordedTestProcess(batch: Fixture.run("clean-solutions", .exited(0)), alone: [:])
        process.packageRoot = root
        var runner = TestRunner(process: process)
        runner.processesAtOnce = 1
        runner.grader = Grader(sources: .solutions)
        let verdicts = try runner.run(items)

        let flagged = try #require(verdicts.first { $0.exercise.id == "1.1" })
        #expect(flagged.kind == .wrong)
        #expect(flagged.findings.compactMap(\.location) == ["\(Layout.exerciseFile(items[0].chapter, items[0].exercise, in: .solutions)):2",
                                                           "\(Layout.exerciseFile(items[0].chapter, items[0].exercise, in: .solutions)):4"])
        #expect(flagged.findings.allSatisfy { $0.kind == .wrong })
        #expect(verdicts.first { $0.exercise.id == "1.2" }?.passed == true, "a file that is not there adds nothing")
    }

    @Test("exercises are dealt in turn into four processes run at once: each exercise in one of them, verdicts in the order asked, the tests that may run at once shared among them")
    func dealtIntoProcesses() throws {
        let items = Fixture.items("1.1", "1.2", "1.3", "5.1", "5.2")
        let runs = ReplayedRuns(Fixture.run("clean-solutions", .exited(0)))
        var runner = TestRunner(process: runs)
        runner.grader = Grader(sources: .solutions)
        #expect(runner.processesAtOnce == 4)
        let verdicts = try runner.run(items)

        #expect(verdicts.map(\.exercise.id) == items.map(\.exercise.id))
        #expect(runs.filters.map(\.count).sorted() == [1, 1, 1, 2])
        #expect(runs.testsAtOnce == [1, 1, 1, 1], "four processes share the four test cases that may run at once")
        // One test at a time, a suite's waits add up: each exercise's share of the bound is four times
        // a lone check's.
        #expect(runs.timeLimits.sorted() == [50, 50, 50, 70])
        #expect(verdicts.allSatisfy { $0.passed })
        let suites = runs.filters.flatMap { $0 }
        for item in items {
            #expect(suites.filter { $0.contains(item.exercise.suite + "(") }.count == 1, "\(item.exercise.id) runs in exactly one process")
        }
        #expect(TestRunner.deal([1, 2, 3, 4, 5, 6, 7], into: 3) == [[1, 4, 7], [2, 5], [3, 6]])

        let alone = ReplayedRuns(Fixture.run("clean-solutions", .exited(0)))
        runner.process = alone
        _ = try runner.run(Fixture.items("1.3"))
        #expect(alone.testsAtOnce == [4], "a lone process runs all four at once")
        #expect(alone.timeLimits == [35], "a lone check's process: 30 s, and 5 s for its exercise")
        #expect(TestRunner.deal([1], into: 3) == [[1]])
    }
}

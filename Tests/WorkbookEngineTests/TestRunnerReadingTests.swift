import Foundation
import Testing
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

@Suite("The runner reads what it grades once, when no check read it (the self-test's runs)")
struct TestRunnerReadingTests {
    @Test("a run over a package reads each graded file once, and places its races on that text")
    func readsEachGradedFileOnce() throws {
        // The text the run was recorded from (its line 18 is the racing decrement), standing for
        // the file in a package; a second read would be counted.
        let recorded = Fixture.text("race-1.1/CountdownBlock.swift.txt")
        let reads = Locked<[String]>([])
        let process = ParsedRuns("race-1.1", .exited(66), packageRoot: URL(fileURLWithPath: "/a/package"))
        var runner = TestRunner(process: process)
        runner.readFile = { url in
            reads.withLock { $0.append(url.path) }
            return recorded
        }
        let verdicts = try runner.run(Fixture.items("1.1"))
        #expect(reads.value == ["/a/package/Exercises/Chapter1Latch/CountdownBlock.swift"], "read once, from the package: \(reads.value)")
        let race = try #require(verdicts.first?.findings.first { $0.kind == .race })
        #expect(race.line == 18, "the race placed on the file as read")
    }

    @Test("a recorded run, with no package, reads nothing up front")
    func recordedRunReadsNothingUpFront() throws {
        let reads = Locked(0)
        var runner = TestRunner(process: ParsedRuns("race-1.1", .exited(66)))
        runner.readFile = { _ in
            reads.withLock { $0 += 1 }
            return nil
        }
        _ = try runner.run(Fixture.items("1.1"))
        #expect(reads.value == 0)
    }
}

import Chapter1Latch
import Testing
import WorkbookTestSupport

@Suite("1.1 makeLatch(count:whenZero:) — a countdown block", .gradedUnderTSan)
struct Exercise1_1Tests {
    @Test("whenZero runs exactly once when four threads make all the calls together")
    func exactlyOnceFromManyThreads() {
        let runs = Tally<Void>()
        let latch = Unchecked(makeLatch(count: 4 * 1_000) { runs.append(()) })

        runConcurrently(threads: 4, iterations: 1_000, "calling the latch 4 000 times") { _, _ in
            latch.value()
        }
        #expect(runs.count == 1, "whenZero ran \(runs.count) times after 4 000 calls on a latch of 4 000; it must run exactly once")
    }

    @Test("whenZero waits for the last call, and later calls do nothing")
    func runsAfterTheLastCallOnly() {
        let runs = Tally<Void>()
        let latch = makeLatch(count: 3) { runs.append(()) }

        latch(); latch()
        #expect(runs.count == 0, "whenZero ran after 2 of 3 calls")
        latch()
        #expect(runs.count == 1, "whenZero did not run on the 3rd of 3 calls")
        latch(); latch()
        #expect(runs.count == 1, "calls after zero ran whenZero again (\(runs.count) runs in all)")
    }

    @Test("a latch of zero runs whenZero at once")
    func zeroCountRunsAtOnce() {
        let runs = Tally<Void>()
        _ = makeLatch(count: 0) { runs.append(()) }
        #expect(runs.count == 1, "makeLatch(count: 0) should run whenZero before it returns; it ran \(runs.count) times")
    }
}

import Chapter1Latch
import Testing
import WorkbookTestSupport

@Suite("1.2 makeLatch(count:whenZero:) with a Bool — the animation latch")
struct Exercise1_2Tests {
    @Test("whenZero(false) when any animation did not finish, even if the last one did")
    func falseIfAnyCallFailed() {
        let results = Tally<Bool>()
        let latch = makeLatch(count: 3) { (allFinished: Bool) in results.append(allFinished) }

        latch(false); latch(true); latch(true)
        #expect(results.all == [false], "calls passed false, true, true; whenZero got \(results.all) — it must get [false]: not every animation finished")
    }

    @Test("whenZero(true) when every animation finished")
    func trueWhenAllFinished() {
        let results = Tally<Bool>()
        let latch = makeLatch(count: 3) { (allFinished: Bool) in results.append(allFinished) }

        latch(true); latch(true)
        #expect(results.all.isEmpty, "whenZero ran after 2 of 3 calls")
        latch(true)
        #expect(results.all == [true], "three calls passed true; whenZero got \(results.all)")
    }

    @Test("one failure among 4 000 calls from four threads is not lost")
    func oneFailureAmongManyThreads() {
        let results = Tally<Bool>()
        let latch = Unchecked(makeLatch(count: 4 * 1_000) { (allFinished: Bool) in results.append(allFinished) })

        runConcurrently(threads: 4, iterations: 1_000, "calling the animation latch 4 000 times") { thread, iteration in
            latch.value(!(thread == 2 && iteration == 10))
        }
        #expect(results.all == [false], "one of 4 000 calls passed false; whenZero got \(results.all)")
    }

    @Test("a latch of zero reports true at once")
    func zeroCountReportsTrue() {
        let results = Tally<Bool>()
        _ = makeLatch(count: 0) { (allFinished: Bool) in results.append(allFinished) }
        #expect(results.all == [true], "makeLatch(count: 0) should call whenZero(true) before it returns; it got \(results.all)")
    }
}

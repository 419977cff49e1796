import Chapter1Latch
import Testing
import WorkbookTestSupport
import WorkbookWire

// 1.1's contract, executable: the scenario and its checker are shared with 1.2 (LatchExplored.swift).

extension Exercise1_1Tests {
    @Test("explored: counts 0 to 40, callers on threads and every kind of queue (main too), calls past zero, a whenZero that calls the block, waits for another thread's call or holds on while others call")
    func explored() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: exploringChildSeconds, cutShort: cutShort) {
                exploreScenarios("Exercise1_1Tests/explored", corners: LatchScenario.corners(bools: false),
                                 generate: { LatchScenario.generate(&$0, bools: false) }, shrink: LatchScenario.shrink,
                                 run: { scenario in
                                     runLatch(scenario, bools: false) { count, whenZero in
                                         let block: () -> Void = makeLatch(count: count, whenZero: { whenZero(true) })
                                         return { _ in block() }
                                     }
                                 })
            }
        }
        judgeChild(result, "Exploring scenarios of the latch's contract", ifItCrashed: Self.callAfterTheQueue)
    }
}

import Chapter1Latch
import Testing
import WorkbookTestSupport
import WorkbookWire

// 1.2's contract, executable: the scenario and its checker are shared with 1.1 (LatchExplored.swift).

extension Exercise1_2Tests {
    @Test("explored: counts 0 to 40, callers on threads and every kind of queue (main too), one false or none, calls past zero, a whenZero that calls the block, waits for another thread's call or holds on while others call")
    func explored() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: exploringChildSeconds, cutShort: cutShort) {
                exploreScenarios("Exercise1_2Tests/explored", corners: LatchScenario.corners(bools: true).map(AnimationLatchScenario.init),
                                 generate: { AnimationLatchScenario(scenario: LatchScenario.generate(&$0, bools: true)) },
                                 shrink: { LatchScenario.shrink($0.scenario).map(AnimationLatchScenario.init) },
                                 run: { scenario in
                                     runLatch(scenario.scenario, bools: true) { count, whenZero in
                                         makeLatch(count: count, whenZero: whenZero)
                                     }
                                 })
            }
        }
        judgeChild(result, "Exploring scenarios of the latch's contract", ifItCrashed: Self.callAfterTheQueue)
    }
}

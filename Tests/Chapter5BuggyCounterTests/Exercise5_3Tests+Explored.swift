import Testing
import WorkbookTestSupport

// 5.3's contract, explored (CompletionExplored.swift): every kind of handed queue, the main queue
// too, called from a thread or from that queue; 0 to 40 functions calling back every way, some twice; a
// second call at once and a third from a completion.

extension Exercise5_3Tests {
    @Test("explored: a serial, concurrent or main queue, called from a thread or from it; 0 to 40 functions calling back before returning, from threads, from the queue, four at once or from another call's completion; calls at once and from a completion")
    func explored() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: exploringChildSeconds, cutShort: cutShort) {
                exploreScenarios("Exercise5_3Tests/explored", corners: CompletionScenario.corners(repeats: true),
                                 generate: { CompletionScenario.generate(&$0, repeats: true) }, shrink: CompletionScenario.shrink,
                                 run: { CompletionDimensions.explore(Exercise5_3Tests.call, $0) })
            }
        }
        judgeChild(result, "Exploring scenarios of runAll's contract", ifItCrashed: Self.trapAdvice)
    }
}

import Chapter4SerialQueues
import Testing
import WorkbookTestSupport
import WorkbookWire

// 4.1's contract, executable, over the history of a run (Registers.swift): reads and sets of `token` from threads and every kind of queue,
// the main queue too, values nil, empty, long and outside ASCII.

extension Exercise4_1Tests {
    @Test("explored: callers on threads and every kind of queue (main too), reads and sets mixed, tokens nil, empty, long and outside ASCII: every read is a stored token, never an older one")
    func explored() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: exploringChildSeconds, cutShort: cutShort) {
                exploreScenarios("Exercise4_1Tests/explored", corners: RegisterScenario.corners(keys: 1, values: RegisterValue.allCases),
                                 generate: { RegisterScenario.generate(&$0, keys: 1, values: RegisterValue.allCases) },
                                 shrink: RegisterScenario.shrink,
                                 run: { scenario in
                                     runRegisters(scenario, initial: nil, what: "a read of `token`",
                                                  make: { TokenStore() },
                                                  read: { object, key in object.token },
                                                  set: { object, key, value in object.token = value })
                                 })
            }
        }
        judgeChild(result, "Exploring scenarios of the store's contract", ifItCrashed: Self.syncInsideSync)
    }
}

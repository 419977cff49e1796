import Chapter4SerialQueues
import Testing
import WorkbookTestSupport
import WorkbookWire

// 4.3's contract, executable, over the history of a run (Registers.swift): reads, writes and removals over three keys from threads and every
// kind of queue (GCD work items, the main queue too), values empty, long and outside ASCII.

extension Exercise4_3Tests {
    @Test("explored: callers on threads and every kind of queue (main too, GCD work items), reads, writes and removals over three keys, values empty, long and outside ASCII: every read is a stored value, never an older one")
    func explored() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: exploringChildSeconds, cutShort: cutShort) {
                exploreScenarios("Exercise4_3Tests/explored", corners: RegisterScenario.corners(keys: 3, values: RegisterValue.allCases),
                                 generate: { RegisterScenario.generate(&$0, keys: 3, values: RegisterValue.allCases) },
                                 shrink: RegisterScenario.shrink,
                                 run: { scenario in
                                     runRegisters(scenario, initial: nil, what: "value(forKey:)",
                                                  make: { SettingsCache() },
                                                  read: { object, key in object.value(forKey: "k\(key)") },
                                                  set: { object, key, value in object.setValue(value, forKey: "k\(key)") })
                                 })
            }
        }
        judgeChild(result, "Exploring scenarios of the cache's contract", ifItCrashed: Self.syncInsideSync)
    }
}

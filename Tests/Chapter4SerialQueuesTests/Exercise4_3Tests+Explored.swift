import Chapter4SerialQueues
import Testing
import WorkbookTestSupport
import WorkbookWire

// 4.3's contract, executable, over the history of a run (Registers.swift): reads, writes and removals over three keys from threads and every
// kind of queue (GCD work items, the main queue too), values empty, long and outside ASCII.

extension Exercise4_3Tests: ExploredVariant {
    static let variant = RegisterScenario.Variant(keys: 3)
    static let exploring = "Exploring scenarios of the cache's contract"
    static var ifItCrashed: String { syncInsideSync }

    static func run(_ scenario: RegisterScenario) -> Violation? {
        runRegisters(scenario, initial: nil, what: "value(forKey:)", make: { SettingsCache() },
                     read: { object, key in object.value(forKey: "k\(key)") }, set: { object, key, value in object.setValue(value, forKey: "k\(key)") })
    }

    @Test("explored: callers on threads and every kind of queue (main too, GCD work items), reads, writes and removals over three keys, values empty, long and outside ASCII: every read is a stored value, never an older one")
    func explored() async {
        await Self.explore()
    }
}

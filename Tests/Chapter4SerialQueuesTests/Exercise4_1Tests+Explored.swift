import Chapter4SerialQueues
import Testing
import WorkbookTestSupport
import WorkbookWire

// 4.1's contract, executable, over the history of a run (Registers.swift): reads and sets of `token` from threads and every kind of queue,
// the main queue too, values nil, empty, long and outside ASCII.

extension Exercise4_1Tests: ExploredVariant {
    static let variant = RegisterScenario.Variant(keys: 1)
    static let exploring = "Exploring scenarios of the store's contract"
    static var ifItCrashed: String { syncInsideSync }

    static func run(_ scenario: RegisterScenario) -> Violation? {
        runRegisters(scenario, initial: nil, what: "a read of `token`", make: { TokenStore() },
                     read: { object, _ in object.token }, set: { object, _, value in object.token = value })
    }

    @Test("explored: callers on threads and every kind of queue (main too), reads and sets mixed, tokens nil, empty, long and outside ASCII: every read is a stored token, never an older one")
    func explored() async {
        await Self.explore()
    }
}

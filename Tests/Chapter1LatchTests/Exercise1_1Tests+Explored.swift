import Chapter1Latch
import Testing
import WorkbookTestSupport
import WorkbookWire

// 1.1's contract, executable: the scenario and its checker are shared with 1.2 (LatchExplored.swift).

extension Exercise1_1Tests: ExploredVariant {
    static let variant = false
    static let exploring = "Exploring scenarios of the latch's contract"
    static var ifItCrashed: String { callAfterTheQueue }

    static func run(_ scenario: LatchScenario) -> Violation? {
        runLatch(scenario) { count, whenZero in
            let block: () -> Void = makeLatch(count: count, whenZero: { whenZero(true) })
            return { _ in block() }
        }
    }

    @Test("explored: counts 0 to 40, callers on threads and every kind of queue (main too), calls past zero, a whenZero that calls the block, waits for another thread's call or holds on while others call")
    func explored() async {
        await Self.explore()
    }
}

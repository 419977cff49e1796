import Chapter1Latch
import Testing
import WorkbookTestSupport
import WorkbookWire

// 1.2's contract, executable: the scenario and its checker are shared with 1.1 (LatchExplored.swift).

extension Exercise1_2Tests: ExploredVariant {
    static let variant = true
    static let exploring = "Exploring scenarios of the latch's contract"
    static var ifItCrashed: String { callAfterTheQueue }

    static func run(_ scenario: LatchScenario) -> Violation? {
        runLatch(scenario) { count, whenZero in makeLatch(count: count, whenZero: whenZero) }
    }

    @Test("explored: counts 0 to 40, callers on threads and every kind of queue (main too), one false or none, calls past zero, a whenZero that calls the block, waits for another thread's call or holds on while others call")
    func explored() async {
        await Self.explore()
    }
}

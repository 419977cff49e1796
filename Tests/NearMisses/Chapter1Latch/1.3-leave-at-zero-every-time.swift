// near-miss crash: The count is clamped at zero, but every `countDown()` that finds it at zero still calls `leave()`, so the second one leaves the group more often than it was entered and libdispatch stops the program.
import Dispatch

/// A one-shot gate that opens when `count` calls to `countDown()` have been made.
public final class CountDownLatch {
    private let queue = DispatchQueue(label: "workbook.countdownlatch")
    private let gate = DispatchGroup()
    private var remaining: Int

    public init(count: Int) {
        remaining = max(count, 0)
        if remaining > 0 { gate.enter() }
    }

    /// Lowers the count by one; opens the latch when it reaches zero. Does nothing at zero.
    public func countDown() {
        let isZero = queue.sync { () -> Bool in
            remaining = max(remaining - 1, 0)
            return remaining == 0
        }
        if isZero { gate.leave() }
    }

    /// How many `countDown()` calls are still needed.
    public var count: Int { queue.sync { remaining } }

    /// Blocks until the latch is open or the timeout passes.
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult {
        if queue.sync(execute: { remaining == 0 }) { return .success }
        let opened = DispatchSemaphore(value: 0)
        gate.notify(queue: queue) { opened.signal() }
        return opened.wait(timeout: timeout)
    }

    /// Runs `execute` on `queue` once the latch is open (right away if it already is).
    public func notify(queue: DispatchQueue, execute: @escaping () -> Void) {
        gate.notify(queue: queue, execute: execute)
    }
}

// near-miss crash: `notify` runs the caller's block on the latch's own private queue instead of the queue it was given, so a block that then reads `count` does `sync` onto the queue it is running on, and libdispatch stops the program.
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
        let opens = queue.sync { () -> Bool in
            guard remaining > 0 else { return false }
            remaining -= 1
            return remaining == 0
        }
        if opens { gate.leave() }
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
        gate.notify(queue: self.queue, execute: execute)
    }
}

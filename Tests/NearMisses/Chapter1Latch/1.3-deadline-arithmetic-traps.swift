// near-miss crash: `wait` turns its deadline into a number of nanoseconds with `timeout.uptimeNanoseconds - DispatchTime.now().uptimeNanoseconds`, which traps (an unsigned subtraction below zero) for a deadline already past — even on a latch that is open.
import Foundation

/// A one-shot gate that opens when `count` calls to `countDown()` have been made.
public final class CountDownLatch {
    private let condition = NSCondition()
    private var remaining: Int
    private var observers: [(queue: DispatchQueue, block: () -> Void)] = []

    public init(count: Int) {
        remaining = max(count, 0)
    }

    /// Lowers the count by one; opens the latch when it reaches zero. Does nothing at zero.
    public func countDown() {
        condition.lock()
        guard remaining > 0 else {
            condition.unlock()
            return
        }
        remaining -= 1
        var toNotify: [(queue: DispatchQueue, block: () -> Void)] = []
        if remaining == 0 {
            toNotify = observers
            observers = []
            condition.broadcast()
        }
        condition.unlock()
        for observer in toNotify { observer.queue.async(execute: observer.block) }
    }

    /// How many `countDown()` calls are still needed.
    public var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return remaining
    }

    /// Blocks until the latch is open or the timeout passes.
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult {
        let nanoseconds = timeout.uptimeNanoseconds - DispatchTime.now().uptimeNanoseconds
        // NSCondition waits until a Date; a year stands in for "forever".
        let deadline = Date(timeIntervalSinceNow: min(Double(nanoseconds) / 1e9, 365 * 24 * 3600))
        condition.lock()
        defer { condition.unlock() }
        while remaining > 0 {
            if !condition.wait(until: deadline) { return remaining == 0 ? .success : .timedOut }
        }
        return .success
    }

    /// Runs `execute` on `queue` once the latch is open (right away if it already is).
    public func notify(queue: DispatchQueue, execute: @escaping () -> Void) {
        condition.lock()
        let alreadyOpen = remaining == 0
        if !alreadyOpen { observers.append((queue, execute)) }
        condition.unlock()
        if alreadyOpen { queue.async(execute: execute) }
    }
}

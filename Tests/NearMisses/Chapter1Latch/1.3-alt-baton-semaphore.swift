// alternative: The starter's semaphore, passed on: every waiter that gets the signal signals again before it returns, so the one signal given at zero travels from waiter to waiter and is always there for the next one.
import Dispatch

/// A one-shot gate that opens when `count` calls to `countDown()` have been made.
public final class CountDownLatch {
    private let queue = DispatchQueue(label: "workbook.countdownlatch")
    private let opened = DispatchSemaphore(value: 0)
    private var remaining: Int
    private var observers: [(queue: DispatchQueue, block: () -> Void)] = []

    public init(count: Int) {
        remaining = max(count, 0)
        if remaining == 0 { opened.signal() }
    }

    /// Lowers the count by one; opens the latch when it reaches zero. Does nothing at zero.
    public func countDown() {
        let toNotify = queue.sync { () -> [(queue: DispatchQueue, block: () -> Void)] in
            guard remaining > 0 else { return [] }
            remaining -= 1
            guard remaining == 0 else { return [] }
            opened.signal()
            defer { observers = [] }
            return observers
        }
        for observer in toNotify { observer.queue.async(execute: observer.block) }
    }

    /// How many `countDown()` calls are still needed.
    public var count: Int { queue.sync { remaining } }

    /// Blocks until the latch is open or the timeout passes.
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult {
        let result = opened.wait(timeout: timeout)
        // Pass the signal on: the latch stays open for the next waiter.
        if result == .success { opened.signal() }
        return result
    }

    /// Runs `execute` on `queue` once the latch is open (right away if it already is).
    public func notify(queue: DispatchQueue, execute: @escaping () -> Void) {
        let alreadyOpen = self.queue.sync { () -> Bool in
            if remaining == 0 { return true }
            observers.append((queue, execute))
            return false
        }
        if alreadyOpen { queue.async(execute: execute) }
    }
}

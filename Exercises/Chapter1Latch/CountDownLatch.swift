import Dispatch

// Exercise 1.3 — a CountDownLatch class.
//
// The contract of java.util.concurrent.CountDownLatch:
// - `countDown()` lowers the count by one; at zero it does nothing (the count never goes negative).
// - When the count reaches zero the latch opens for good: every `wait(timeout:)`, before or after,
//   returns `.success`, and every `notify` block runs (at once, if registered after zero).
// - Whatever a thread did before its `countDown()` is visible to a thread whose `wait` succeeded.
//
// This starter opens its gate with a semaphore. Find out why that is not a latch.

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

    /// Lowers the count by one; opens the latch when it reaches zero.
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
        opened.wait(timeout: timeout)
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

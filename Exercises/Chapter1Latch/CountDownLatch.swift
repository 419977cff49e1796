import Dispatch

// Exercise 1.3 — a CountDownLatch class.
//
// Contract (java.util.concurrent.CountDownLatch, plus a Dispatch-style `notify`; the tests in
// Tests/Chapter1LatchTests check every line):
// - `CountDownLatch(count: 0)` is open from the start.
// - `countDown()` lowers the count by one; at zero it does nothing (the count never goes negative).
//   It never blocks: it neither waits for waiters nor runs or waits for `notify` blocks.
// - `count` is the number of `countDown()` calls still needed; any thread may read it at any time.
// - When the count reaches zero the latch opens, once and for good: every thread already in
//   `wait(timeout:)` returns `.success`, and so does every later `wait`, from any number of
//   threads, without waiting for its timeout.
// - `wait(timeout:)` returns `.timedOut` only if the latch is still closed at the deadline. A wait
//   that timed out changes nothing: not the count, not later waits.
// - Whatever a thread did before its `countDown()` is visible to a thread whose `wait` succeeded,
//   and inside a `notify` block.
// - `notify(queue:execute:)` runs `execute` exactly once per call, asynchronously on `queue`, once
//   the latch is open (submitted at once if it already is; never run on the caller's thread, and
//   `notify` does not wait for it). A `notify` block may use the latch: `count`, `countDown()`,
//   `wait`, `notify`.
// - A latch may be released while still closed. Nothing traps; its `notify` blocks never run; and
//   they, with whatever they captured, go away with the latch instead of staying alive.
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

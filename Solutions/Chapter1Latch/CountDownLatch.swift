import Dispatch

// Exercise 1.3 — a CountDownLatch class (reference solution).
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

/// A one-shot gate that opens when `count` calls to `countDown()` have been made.
///
/// Built on a `DispatchGroup` that is entered once and left when the count reaches zero. Unlike a
/// semaphore, whose every `signal()` lets exactly one `wait()` through, an empty group runs *every*
/// `notify` block, registered before or after — which is what a latch promises.
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
        // Exactly one caller sees the count reach zero, so `leave()` balances `enter()` once.
        if opens { gate.leave() }
    }

    /// How many `countDown()` calls are still needed.
    public var count: Int { queue.sync { remaining } }

    /// Blocks until the latch is open or the timeout passes.
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult {
        // `gate.wait` must not be called from several threads at once (dispatch/group.h leaves that
        // undefined), so each waiter gets a semaphore of its own that the open gate signals.
        // The signal goes through our own queue: a global queue's few threads may all be busy.
        let opened = DispatchSemaphore(value: 0)
        gate.notify(queue: queue) { opened.signal() }
        return opened.wait(timeout: timeout)
    }

    /// Runs `execute` on `queue` once the latch is open (right away if it already is).
    public func notify(queue: DispatchQueue, execute: @escaping () -> Void) {
        gate.notify(queue: queue, execute: execute)
    }
}

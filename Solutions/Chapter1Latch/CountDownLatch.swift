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
// - A latch may be released while still closed. Nothing traps; its `notify` blocks never run; and
//   they, with whatever they captured, go away with the latch instead of staying alive.

/// A one-shot gate that opens when `count` calls to `countDown()` have been made.
///
/// Built on a `DispatchGroup` that is entered once and left once: when the count reaches zero, or
/// when a latch that never opened goes away. Unlike a semaphore, whose every `signal()` lets exactly
/// one `wait()` through, an empty group submits *every* `notify` block, registered before or after.
public final class CountDownLatch {
    /// Set once, by `deinit` of a latch that never opened, before the `leave()` that balances the
    /// group; the group orders that write before every `notify` block it then submits.
    private final class Abandoned: @unchecked Sendable {
        var isSet = false
    }

    private let queue = DispatchQueue(label: "workbook.countdownlatch")
    private let gate = DispatchGroup()
    private let abandoned = Abandoned()
    private var remaining: Int

    public init(count: Int) {
        remaining = max(count, 0)
        if remaining > 0 { gate.enter() }
    }

    deinit {
        // A group that is still entered is never freed: `dispatch_group_enter` took a reference to
        // it (src/semaphore.c), so it would keep every `notify` block, and what the blocks
        // captured, alive for ever. A latch that never opened balances its group on the way out,
        // and tells the blocks this wakes not to run.
        let stillClosed = queue.sync { remaining > 0 }
        if stillClosed {
            abandoned.isSet = true
            gate.leave()
        }
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
        // An open latch lets every wait through at once, whatever its deadline. Look at the count
        // first: a `notify` block is submitted asynchronously, and a deadline already past (or
        // `.now()`) can run out before it runs. Reading the count through the queue also orders
        // every countDown() before this wait.
        if queue.sync(execute: { remaining == 0 }) { return .success }
        // dispatch/group.h leaves calling `dispatch_group_wait` on one group from several threads
        // at once undefined, and a latch has many waiters. So each waiter gets a semaphore of its
        // own (one signal, one waiter: what a semaphore is for), and the group signals it.
        // The semaphore starts at 0 and is only ever raised, so releasing it never traps.
        let opened = DispatchSemaphore(value: 0)
        gate.notify(queue: queue) { opened.signal() }
        return opened.wait(timeout: timeout)
    }

    /// Runs `execute` on `queue` once the latch is open (right away if it already is).
    public func notify(queue: DispatchQueue, execute: @escaping () -> Void) {
        gate.notify(queue: queue) { [abandoned] in
            if !abandoned.isSet { execute() }
        }
    }
}

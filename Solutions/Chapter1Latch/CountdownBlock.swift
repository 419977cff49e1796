import Dispatch

// Exercise 1.1 — a countdown block (reference solution).
//
// Contract (the tests in Tests/Chapter1LatchTests check every line):
// - After the returned block has been called `count` times, `whenZero` runs exactly once, whichever
//   threads make the calls and however many make them at the same moment.
// - `whenZero` runs synchronously on the thread that makes the `count`-th call, before that call
//   returns: not earlier, not later, not on another thread or queue.
// - Whatever a thread did before its call is visible inside `whenZero`.
// - Calls after that do nothing: the count never goes below zero, and `whenZero` never runs again.
// - `count == 0`: `whenZero` runs on the caller's thread before `makeLatch` returns; the returned
//   block then does nothing.
// - `whenZero` may call the block itself (that call does nothing), and other threads may call it
//   while `whenZero` runs: neither may trap, nor wait for `whenZero` to finish.

/// Returns a block that runs `whenZero` once it has been called `count` times.
///
/// `whenZero` runs exactly once, on the thread that makes the `count`-th call; later calls do
/// nothing. With `count == 0` it runs before this function returns.
public func makeLatch(count: Int, whenZero: @escaping () -> Void) -> () -> Void {
    guard count > 0 else {
        whenZero()
        return {}
    }
    // A private *serial* queue: its blocks run one at a time, so only one caller at a time reads
    // and writes `toComplete`. (A global queue is concurrent: `sync` onto it excludes nobody.)
    let queue = DispatchQueue(label: "workbook.latch")
    var toComplete = count
    return {
        let reachedZero = queue.sync { () -> Bool in
            guard toComplete > 0 else { return false }
            toComplete -= 1
            return toComplete == 0
        }
        // Run the caller's code outside the queue, so that it may use the latch itself.
        if reachedZero { whenZero() }
    }
}

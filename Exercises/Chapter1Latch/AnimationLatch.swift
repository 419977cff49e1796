import Dispatch

// Exercise 1.2 — the animation latch.
//
// Contract (the tests in Tests/Chapter1LatchTests check every line):
// - After the returned block has been called `count` times, `whenZero` runs exactly once: with
//   `true` if every one of those `count` calls passed `true`, with `false` otherwise — whichever
//   threads make the calls and however many make them at the same moment.
// - `whenZero` runs synchronously on the thread that makes the `count`-th call, before that call
//   returns.
// - Calls after that do nothing: `whenZero` never runs again, and their Bool is ignored.
// - `count == 0`: `whenZero(true)` runs on the caller's thread before `makeLatch` returns; the
//   returned block then does nothing.
// - `whenZero` may call the block itself (that call does nothing), and other threads may call it
//   while `whenZero` runs: neither may trap, nor wait for `whenZero` to finish.
//
// The article's "ProTip": give `whenZero` a Bool so the latch can be handed straight to an
// animation's `completion: (Bool) -> Void`. `whenZero(true)` must mean "every animation finished",
// so it may pass `true` only if every call passed `true`.
//
// The bookkeeping below is already safe (a private serial queue). The bug is elsewhere.

/// Returns a block that, after `count` calls, runs `whenZero` with `true` only if every call
/// passed `true`.
public func makeLatch(count: Int, whenZero: @escaping (Bool) -> Void) -> (Bool) -> Void {
    let queue = DispatchQueue(label: "workbook.animation-latch")
    var toComplete = count
    if count == 0 { whenZero(true) }
    return { finished in
        let reachedZero = queue.sync { () -> Bool in
            guard toComplete > 0 else { return false }
            toComplete -= 1
            return toComplete == 0
        }
        if reachedZero {
            whenZero(finished)
        }
    }
}

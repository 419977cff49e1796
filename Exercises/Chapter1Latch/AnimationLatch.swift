import Dispatch
import Foundation

// Exercise 1.2 — the animation latch.
//
// Contract (the tests in Tests/Chapter1LatchTests check every line):
// - After the returned block has been called `count` times, `whenZero` runs exactly once: with
//   `true` if every one of those `count` calls passed `true`, with `false` otherwise — whichever
//   threads make the calls and however many make them at the same moment.
// - `whenZero` runs synchronously on the thread that makes the `count`-th call, before that call
//   returns.
// - Whatever a thread did before its call is visible inside `whenZero`.
// - Calls after that do nothing: `whenZero` never runs again, and their Bool is ignored.
// - `count == 0`: `whenZero(true)` runs on the caller's thread before `makeLatch` returns; the
//   returned block then does nothing.
// - `whenZero` may call the block itself (that call does nothing), and other threads may call it
//   while `whenZero` runs: neither may trap, nor wait for `whenZero` to finish.
//
// The article's "ProTip": give the zero block a Bool, so that the latch itself can be passed as an
// animation's `completion: (Bool) -> Void`. Read `whenZero(true)` as "every animation finished".
//
// This starter is the ProTip as a colleague wrote it. They guarded the count with an `NSLock`
// instead of a queue, and TSan has nothing to say about it. Run `swift run workbook check 1.2` and
// compare the Bool that `whenZero` receives with the Bools the calls passed.

/// Returns a block that, after `count` calls, runs `whenZero` with `true` only if every call
/// passed `true`.
public func makeLatch(count: Int, whenZero: @escaping (Bool) -> Void) -> (Bool) -> Void {
    let lock = NSLock()
    var toComplete = count
    if toComplete == 0 { whenZero(true) }
    return { finished in
        lock.lock()
        let wasLast = toComplete == 1
        if toComplete > 0 { toComplete -= 1 }
        lock.unlock()
        // The animation that finished last hands its Bool on.
        if wasLast { whenZero(finished) }
    }
}

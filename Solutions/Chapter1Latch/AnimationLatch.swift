import Dispatch

// Exercise 1.2 — the animation latch (reference solution).
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

/// Returns a block that, after `count` calls, runs `whenZero` with `true` only if every call
/// passed `true`.
public func makeLatch(count: Int, whenZero: @escaping (Bool) -> Void) -> (Bool) -> Void {
    guard count > 0 else {
        whenZero(true)
        return { _ in }
    }
    let queue = DispatchQueue(label: "workbook.animation-latch")
    var toComplete = count
    // The answer is about *all* calls, so every call must contribute to it — not only the last.
    var allFinished = true
    return { finished in
        let outcome = queue.sync { () -> Bool? in
            guard toComplete > 0 else { return nil }
            allFinished = allFinished && finished
            toComplete -= 1
            return toComplete == 0 ? allFinished : nil
        }
        if let outcome { whenZero(outcome) }
    }
}

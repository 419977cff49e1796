import Dispatch

// Exercise 1.1 — a countdown block.
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
//
// This is the article's design, translated to Swift. Run `swift run workbook check 1.1` and read
// what the Thread Sanitizer says about it. The lesson is in README.md next to this file.

/// Returns a block that runs `whenZero` once it has been called `count` times.
public func makeLatch(count: Int, whenZero: @escaping () -> Void) -> () -> Void {
    var toComplete = count
    return {
        // "Synchronously" on a global queue, as the article does.
        DispatchQueue.global().sync {
            toComplete -= 1
            if toComplete == 0 {
                whenZero()
            }
        }
    }
}

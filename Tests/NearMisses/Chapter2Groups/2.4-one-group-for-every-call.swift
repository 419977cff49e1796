// near-miss hang: one group, kept in a global, counts the callbacks of every call, so a call whose functions have all called back still waits for the other calls' callbacks — and calls made at the same moment keep one another waiting until their deadlines.
import Dispatch

// Exercise 2.4 — waitForAll: the blocking variant of runAll.
//
// The contract:
// - Every function is started exactly once; waitForAll then blocks the calling thread until all of
//   them have called back or `timeout` has passed (a point in time, not a duration).
// - Each function calls back at most once: before it returns, later, or from another thread; many
//   may call back at the same moment.
// - Returns `true` as soon as every function has called back — at once for an empty list, or when
//   all of them called back before returning.
// - Returns `false` when the deadline passes while a function still holds its callback uncalled:
//   not before the deadline, and soon after it. A function that never calls back costs the caller
//   `timeout`, not its thread.
// - A function may also drop its callback: release it without ever calling it (an error path that
//   forgets to call back). That function never called back, so the answer is `false`, by the
//   deadline; and nothing stops the program.
// - Callbacks that come after a timeout change nothing: the answer already given stands, and
//   nothing stops the program.

/// Starts `functions` and blocks until all of them have called back or `timeout` has passed;
/// returns whether all of them called back in time.
///
/// Blocks the calling thread: never call it on the main thread, nor on a queue that one of the
/// functions needs in order to call back.
// One group for every call: it counts what is still owed.
private let group = DispatchGroup()

public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    for function in functions {
        group.enter()
        function { group.leave() }
    }
    // `.success` only if the group emptied before the deadline. After a timeout, callbacks still
    // owed may come later: each leave() balances its own enter(), so they stop nothing. A function
    // that drops its callback never leaves; the group then stays entered, and libdispatch does not
    // free it (`dispatch_group_enter` retained it, src/semaphore.c): a small leak, and no notify
    // block hangs on it. The answer is `false` either way.
    return group.wait(timeout: timeout) == .success
}

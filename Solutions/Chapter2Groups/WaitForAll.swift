import Dispatch

// Exercise 2.4 — waitForAll: the blocking variant of runAll.
//
// The contract:
// - Every function is started exactly once; waitForAll then blocks the calling thread until all of
//   them have called back or `timeout` has passed (a point in time, not a duration).
// - Each function calls back exactly once: before it returns, later, or from another thread; many
//   may call back at the same moment.
// - Returns `true` as soon as every function has called back — at once for an empty list, or when
//   all of them called back before returning.
// - Returns `false` when the deadline passes first: not before the deadline, and soon after it. A
//   function that never calls back costs the caller `timeout`, not its thread.
// - Callbacks that come after a timeout change nothing and must not stop the program: the group is
//   left as it is, and their leave() calls still balance the enter() calls.

/// Starts `functions` and blocks until all of them have called back or `timeout` has passed;
/// returns whether all of them called back in time.
///
/// Blocks the calling thread: never call it on the main thread, nor on a queue that one of the
/// functions needs in order to call back.
public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        function { group.leave() }
    }
    // `wait(timeout:)` returns `.timedOut` when the deadline passes first; the callbacks still
    // owed may arrive later, and their leave() calls still balance the enter() calls above.
    return group.wait(timeout: timeout) == .success
}

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
//
// `Block` and `FunctionWithCallback` are declared in RunAll.swift.

/// Starts `functions` and blocks until all of them have called back or `timeout` has passed;
/// returns whether all of them called back in time.
public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        function { group.leave() }
    }
    group.wait()
    return true
}

import Dispatch

// Exercise 2.4 — waitForAll: the blocking variant of runAll.
//
// Start every function, then block the calling thread until all of them have called back — but
// never past `timeout`. Return `true` if every function called back in time, `false` if the
// deadline passed first. A function that never calls back must cost the caller `timeout`, not
// its thread.
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

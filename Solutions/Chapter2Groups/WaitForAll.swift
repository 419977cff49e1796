import Dispatch

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

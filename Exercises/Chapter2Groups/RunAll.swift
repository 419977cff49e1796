import Dispatch

// Exercise 2.1 — runAll: start a list of functions, hear back once when all of them are done.
//
// Every function is started on `queue`; each one calls its argument back when it is done — maybe
// before it returns, maybe later, maybe from another thread. `completion` must run exactly once,
// on `queue`, after every function has called back. An empty list completes at once.
//
// The group below balances every enter() with a leave(), and yet `completion` can run before a
// single function has started. Find out where enter() has to go.

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when it is done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Starts every function in `functions` on `queue`, and calls `completion` on `queue` once all of
/// them have called back.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    for function in functions {
        // Start each function on the queue, so that runAll itself returns at once.
        queue.async {
            group.enter()
            function { group.leave() }
        }
    }
    group.notify(queue: queue, execute: completion)
}

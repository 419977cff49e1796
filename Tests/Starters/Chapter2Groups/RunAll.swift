import Dispatch

// Exercise 2.1 — runAll: start a list of functions, hear back once when all of them are done.
//
// The contract:
// - runAll returns at once: it calls no function itself and never waits for a callback.
// - Every function is started exactly once, on `queue`.
// - Each function calls its argument back exactly once: before it returns, later, or from another
//   thread; many may call back at the same moment, on different threads.
// - `completion` runs exactly once, on `queue`, after every function has called back — never
//   before, never twice.
// - `completion` is always submitted to `queue`, never called from inside runAll: an empty list
//   completes at once, on `queue`.
// - runAll never blocks `queue` while it waits: a function may call back from a block it sends to
//   `queue`.
//
// The group below balances every enter() with a leave(), and yet `completion` can run before a
// single function has called back. Run the suite, then read "Where enter() goes" in the lesson.

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

import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Runs `functions` and calls `completion` on `queue` once all of them have called back.
///
/// A `DispatchGroup` is the counter: `enter()` before each function starts, `leave()` in its
/// callback, and `notify` when the count is back to zero — which, for an empty list, is right away.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        function { group.leave() }
    }
    group.notify(queue: queue, execute: completion)
}

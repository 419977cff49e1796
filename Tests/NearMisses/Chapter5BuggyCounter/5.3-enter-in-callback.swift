// near-miss wrong: `enter()` is called inside the callback, just before `leave()`, so nothing is counted while the functions run — when `notify` looks, the group is empty and completion runs at once, before any function has finished.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Runs `functions` and calls `completion` on `queue` once all of them have called back.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    for function in functions {
        function {
            group.enter()
            group.leave()
        }
    }
    group.notify(queue: queue, execute: completion)
}

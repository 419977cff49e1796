// near-miss crash: `enter()` comes after the function is called, so a function that calls back before it returns runs `leave()` before its `enter()` — an unbalanced leave, which libdispatch stops with a trap.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Runs `functions` and calls `completion` on `queue` once all of them have called back.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    for function in functions {
        function { group.leave() }
        group.enter()
    }
    group.notify(queue: queue, execute: completion)
}

// near-miss wrong: each function is started later on `queue`, and `enter()` happens there too, so when `notify` looks the group is still empty — completion is scheduled at once and runs before any function has called back.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Runs `functions` and calls `completion` on `queue` once all of them have called back.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    for function in functions {
        queue.async {
            group.enter()
            function { group.leave() }
        }
    }
    group.notify(queue: queue, execute: completion)
}

// near-miss wrong: `queue.async(group:)` counts each block only until it returns, not until the function calls back, so completion runs while callbacks are still outstanding.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when it is done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    for function in functions {
        // The group counts this block from the moment it is queued until it has run.
        queue.async(group: group) {
            function {}
        }
    }
    group.notify(queue: queue, execute: completion)
}

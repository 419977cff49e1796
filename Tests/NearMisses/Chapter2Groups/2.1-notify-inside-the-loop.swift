// near-miss wrong: notify is registered once per function, inside the loop, so completion runs once for every function instead of exactly once.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when it is done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    guard !functions.isEmpty else {
        queue.async(execute: completion)
        return
    }
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        queue.async {
            function { group.leave() }
        }
        group.notify(queue: queue, execute: completion)
    }
}

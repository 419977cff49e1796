// near-miss wrong: notify is registered before any enter(), on an empty group, so completion is scheduled at once instead of after the callbacks.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when it is done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    // Say up front what happens at the end.
    group.notify(queue: queue, execute: completion)
    for function in functions {
        group.enter()
        queue.async {
            function { group.leave() }
        }
    }
}

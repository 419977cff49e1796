// near-miss wrong: enter() runs inside the function's callback, so nothing is counted when notify looks at the group, and completion runs before any function has called back.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when it is done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    for function in functions {
        queue.async {
            function {
                // The function is done: count it in, and out again.
                group.enter()
                group.leave()
            }
        }
    }
    group.notify(queue: queue, execute: completion)
}

// near-miss wrong: the functions are called directly on the caller's thread instead of on queue, so runAll runs them itself before it returns.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when it is done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    for function in functions {
        // The functions are asynchronous anyway: just start them.
        group.enter()
        function { group.leave() }
    }
    group.notify(queue: queue, execute: completion)
}

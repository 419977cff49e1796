// near-miss hang: group.wait() inside runAll blocks the caller until every function has called back, so runAll does not return at once — and never returns if a callback needs the caller.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when it is done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        queue.async {
            function { group.leave() }
        }
    }
    // Every function has called back once this returns.
    group.wait()
    queue.async(execute: completion)
}

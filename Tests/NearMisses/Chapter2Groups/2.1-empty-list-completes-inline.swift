// near-miss wrong: for an empty list completion is called right away on the caller's thread, not submitted to queue, so callers get it synchronously and on the wrong thread.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when it is done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    // Nothing to wait for: done.
    if functions.isEmpty {
        completion()
        return
    }
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        queue.async {
            function { group.leave() }
        }
    }
    group.notify(queue: queue, execute: completion)
}

// near-miss hang: a block on queue waits for the group, so callbacks that come through queue are stuck behind it and the wait never ends.
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
    // Wait on queue, not on the caller's thread, then complete right there.
    queue.async {
        group.wait()
        completion()
    }
}

// near-miss hang: completion is sent to `queue` at once, where it waits for the group — so `queue` is blocked, and everything else sent to it waits, until the last function has called back.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Runs `functions` and calls `completion` on `queue` once all of them have called back.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        function { group.leave() }
    }
    queue.async {
        group.wait()
        completion()
    }
}

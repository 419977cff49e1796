// near-miss race: each callback sends its decrement to the queue that was handed in — one block at a time only if `queue` is serial; on a concurrent queue the blocks change `remaining` at the same time.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Runs `functions` and calls `completion` on `queue` once all of them have called back.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    guard !functions.isEmpty else {
        queue.async(execute: completion)
        return
    }
    var remaining = functions.count
    for function in functions {
        function {
            queue.async {
                remaining -= 1
                if remaining == 0 { completion() }
            }
        }
    }
}

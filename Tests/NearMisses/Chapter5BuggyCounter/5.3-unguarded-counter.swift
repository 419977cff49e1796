// near-miss race: the book's first counter without any protection (the empty list handled), so callbacks on several threads change `remaining` at the same time — a data race that can lose a decrement.
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
            remaining -= 1
            if remaining == 0 { queue.async(execute: completion) }
        }
    }
}

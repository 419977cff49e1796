// alternative: an `Atomic<Int>` count that starts at the list's length, decremented with `.acquiringAndReleasing` ordering so the callback that sees zero also sees every other callback's work; a flag per function, exchanged atomically, lets only its first callback count.
import Dispatch
import Synchronization

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
    final class Remaining: Sendable {
        let count: Atomic<Int>
        init(_ count: Int) { self.count = Atomic(count) }
    }
    /// Whether one function has called back: only its first callback counts.
    final class Once: Sendable {
        let done = Atomic(false)
    }
    let remaining = Remaining(functions.count)
    for function in functions {
        let once = Once()
        function {
            guard !once.done.exchange(true, ordering: .relaxed) else { return }
            if remaining.count.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                queue.async(execute: completion)
            }
        }
    }
}

// near-miss race: an `Atomic<Int>` count whose `subtract` is `.relaxed`: exactly one callback sees zero, but the relaxed decrement orders nothing — completion is not guaranteed to see what the other functions' callbacks wrote before calling back.
import Dispatch
import Synchronization

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Runs `functions` and calls `completion` on `queue` once all of them have called back.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    guard !functions.isEmpty else {
        queue.async { completion() }
        return
    }
    final class Remaining: Sendable {
        let count: Atomic<Int>
        init(_ count: Int) { self.count = Atomic(count) }
    }
    let remaining = Remaining(functions.count)
    for (function, once) in zip(functions, functions.map { _ in Remaining(1) }) {  // once: only a function's first callback counts
        function { guard once.count.subtract(1, ordering: .relaxed).newValue == 0 else { return }
            if remaining.count.subtract(1, ordering: .relaxed).newValue == 0 {
                queue.async { completion() }
            }
        }
    }
}

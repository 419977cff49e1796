// near-miss wrong: right without the Thread Sanitizer — each callback decrements with `.releasing`, and the one that reaches zero puts an `.acquiring` fence before the completion — but TSan models no standalone fence, so the grader cannot judge it and says so at the fence's line instead of calling it a race.
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
    let remaining = Remaining(functions.count)
    for function in functions {
        function {
            if remaining.count.subtract(1, ordering: .releasing).newValue == 0 {
                atomicMemoryFence(ordering: .acquiring)
                queue.async(execute: completion)
            }
        }
    }
}

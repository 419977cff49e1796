// alternative: an `NSLock` guarding a count that starts at the list's length; a set under the same lock lets only each function's first callback count; the callback that takes it to zero sends completion to `queue`, and an empty list is sent there at once.
import Foundation

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Runs `functions` and calls `completion` on `queue` once all of them have called back.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let lock = NSLock()
    var remaining = functions.count
    var calledBack = Set<Int>()  // only a function's first callback counts
    if remaining == 0 { queue.async(execute: completion) }
    for (index, function) in functions.enumerated() {
        function {
            lock.lock()
            var finished = false
            if calledBack.insert(index).inserted {
                remaining -= 1
                finished = remaining == 0
            }
            lock.unlock()
            if finished { queue.async(execute: completion) }
        }
    }
}

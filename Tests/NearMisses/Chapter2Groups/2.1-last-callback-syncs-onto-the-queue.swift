// near-miss crash: the last callback delivers completion with queue.sync, which traps when that callback comes on queue itself (a function that calls back before it returns).
import Foundation
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when it is done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    guard !functions.isEmpty else {
        queue.async(execute: completion)
        return
    }
    let lock = NSLock()
    var remaining = functions.count
    for function in functions {
        queue.async {
            function {
                lock.lock()
                remaining -= 1
                let last = remaining == 0
                lock.unlock()
                // Make sure completion runs on queue.
                if last { queue.sync(execute: completion) }
            }
        }
    }
}

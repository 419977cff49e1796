// alternative: a countdown guarded by NSLock instead of a group; the callback that brings it to zero schedules completion on queue.
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
                if last { queue.async(execute: completion) }
            }
        }
    }
}

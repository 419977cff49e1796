// near-miss hang: the countdown is a global shared by every runAll call, guarded by a lock, so a second call resets the first one's count and the first call's completion never comes.
import Foundation
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when it is done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

private let lock = NSLock()
nonisolated(unsafe) private var remaining = 0

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    guard !functions.isEmpty else {
        queue.async(execute: completion)
        return
    }
    lock.lock()
    remaining = functions.count
    lock.unlock()
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

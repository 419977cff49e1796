// near-miss race: the countdown is changed under a lock but read after unlocking, so one callback reads it while another thread changes it (and two callbacks can both see zero).
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
                lock.unlock()
                if remaining == 0 {
                    queue.async(execute: completion)
                }
            }
        }
    }
}

// near-miss crash: the functions are called inside `counter.sync`, so a callback that comes before its function returns does `counter.sync` on the queue it is already running on — libdispatch stops that with a trap.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Runs `functions` and calls `completion` on `queue` once all of them have called back.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let counter = DispatchQueue(label: "workbook.run-all")
    var remaining = 0
    func finishOne() {
        let finished = counter.sync { () -> Bool in
            remaining -= 1
            return remaining == 0
        }
        if finished { queue.async(execute: completion) }
    }
    counter.sync {
        // Count and start everything in one protected step.
        remaining = functions.count
        if remaining == 0 { queue.async(execute: completion) }
        for function in functions {
            function { finishOne() }
        }
    }
}

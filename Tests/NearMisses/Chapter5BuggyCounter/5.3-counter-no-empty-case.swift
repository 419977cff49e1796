// near-miss hang: 5.2's repaired counter without its empty case: a count on a serial queue, set to the list's length before any function runs and lowered and tested in one block, but with an empty list no function runs, no callback comes, and nothing sends completion.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Runs `functions` and calls `completion` on `queue` once all of them have called back.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let counter = DispatchQueue(label: "workbook.run-all")
    var remaining = functions.count
    for function in functions {
        function {
            let finished = counter.sync { () -> Bool in
                remaining -= 1
                return remaining == 0
            }
            if finished { queue.async(execute: completion) }
        }
    }
}

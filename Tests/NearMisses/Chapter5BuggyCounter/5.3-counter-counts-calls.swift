// near-miss wrong: the starter with the empty list sent to `queue` at once — right for every function that calls back once; but the count counts callbacks, not functions: a function that calls back twice takes it to zero while another function has not called back yet, and completion runs early.
import Dispatch

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

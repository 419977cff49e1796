// near-miss wrong: the decrement and the test for zero are two separate `counter.sync` calls, so when the last two callbacks come together both can see 0 and completion runs twice.
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
            counter.sync { remaining -= 1 }
            let finished = counter.sync { remaining == 0 }
            if finished { queue.async(execute: completion) }
        }
    }
}

import Dispatch

// Exercise 5.3 — the book's reusable helper.
//
// Run every function in the list; when each has called back, run `completion` once, on `queue`.
// An empty list has nothing to wait for, so it completes too.
//
// This attempt keeps a count on a serial queue, so the count itself is safe. Is that enough?

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

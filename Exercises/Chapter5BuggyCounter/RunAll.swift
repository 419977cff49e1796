import Dispatch

// Exercise 5.3 — the book's reusable helper.
//
// Contract (the tests in Tests/Chapter5BuggyCounterTests/Exercise5_3Tests.swift check each point):
// - `runAll` calls each function exactly once, itself, on the caller's thread, and returns without
//   waiting for the callbacks: it never blocks its caller, nor `queue`.
// - A function may call back before it returns (on the caller's thread, while `runAll` is still in
//   its loop), later from another thread, or several at the same moment.
// - `completion` runs exactly once, on `queue`, and only after every function has called back. It
//   is sent there asynchronously: never called from inside `runAll`, nor with `queue.sync`.
// - An empty list has nothing to wait for: `completion` is sent to `queue` at once — still once,
//   still asynchronously.
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

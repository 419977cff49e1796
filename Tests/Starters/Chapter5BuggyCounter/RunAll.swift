import Dispatch

// Exercise 5.3 — the book's reusable helper, coming from the counter it replaces. (Chapter 2's
// 2.1 started the functions on `queue` and was about where `enter()` goes; here `runAll` calls them
// itself, and the questions are what a correct hand-made count still misses, and what a group
// does not count.)
//
// Contract (the tests in Tests/Chapter5BuggyCounterTests/Exercise5_3Tests.swift check each point):
// - `runAll` calls each function exactly once, itself, on the caller's thread, and returns without
//   waiting for the callbacks: it never blocks its caller, nor `queue`.
// - A function may call back before it returns (on the caller's thread, while `runAll` is still in
//   its loop), later from another thread, or several at the same moment.
// - A function may call back more than once (a service that retries, say), from any thread, even
//   from two at the same moment. Only its first callback counts; a later one changes nothing.
// - `completion` runs exactly once, on `queue`, and only after every function has called back. It
//   is sent there asynchronously: never called from inside `runAll`, nor with `queue.sync`.
// - An empty list has nothing to wait for: `completion` is sent to `queue` at once — still once,
//   still asynchronously, exactly as it arrives for a non-empty list (never called inline).
// - `queue` may be serial or concurrent, or the very queue the caller runs on. `completion` sees
//   everything each function did before calling back. Calls made at the same time, or from a
//   completion, each wait for their own functions only.
//
// This attempt is 5.2's repaired counter, for a list of functions: the count lives on a serial
// queue, starts at `functions.count` before any function runs, and each callback lowers and tests
// it in one block; an empty list gets its completion at once. It meets every clause 5.2 had, yet
// a test fails. Run `swift run workbook check 5.3`, note which call it names, and follow that call
// through this file callback by callback; then check your repair against every clause above. (The
// lesson is in README.md next to this file.)

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

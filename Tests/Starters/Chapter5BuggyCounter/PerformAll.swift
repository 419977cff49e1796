import Dispatch

// Exercise 5.2 — run a piece of work several times and find out when all of it is done.
//
// Contract (the tests in Tests/Chapter5BuggyCounterTests/Exercise5_2Tests.swift check each point):
// - `performAll` calls `work` exactly `times` times, itself, on the caller's thread, and returns
//   without waiting for the callbacks: it never blocks its caller, nor `queue`.
// - A callback may come before `work` returns (on the caller's thread, while `performAll` is still
//   in its loop), later from another thread, or from several threads at the same moment.
// - `completion` runs exactly once, on `queue`, and only after every callback has been made. It is
//   sent there asynchronously: never called from inside `performAll`, nor with `queue.sync`.
// - `times: 0` has nothing to wait for: `completion` is sent to `queue` at once — still once,
//   still asynchronously.
// - `queue` may be serial or concurrent, or the very queue the caller runs on. `completion` sees
//   everything each callback's work did before calling back. Calls made at the same time, or from
//   a completion, each wait for their own work only.
//
// `work` starts one piece of work and calls its argument back when that piece is done — maybe
// before it returns, maybe later, maybe from another thread. `completion` must run exactly once,
// on `queue`, after every callback has been made.
//
// This is the book's "very, very bad code", translated. Repair its count rather than replace it
// (the lesson, README.md next to this file, says why).

/// Calls `work` `times` times and runs `completion` on `queue` once every call has called back.
public func performAll(
    times: Int,
    work: @escaping (@escaping () -> Void) -> Void,
    queue: DispatchQueue,
    completion: @escaping () -> Void
) {
    var count = 0
    for _ in 0..<times {
        count += 1  // one more operation
        work {
            count -= 1  // one operation is done
            if count == 0 {  // all done?
                queue.async(execute: completion)
            }
        }
    }
}

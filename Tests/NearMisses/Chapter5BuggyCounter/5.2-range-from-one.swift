// near-miss crash: the book's own group loop runs over a range that starts at 1 — one piece of work too few for every `times`, and for `times: 0` the range `1..<0` cannot even be formed, so the runtime stops the program.
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

/// Calls `work` `times` times and runs `completion` on `queue` once every call has called back.
public func performAll(
    times: Int,
    work: @escaping (@escaping () -> Void) -> Void,
    queue: DispatchQueue,
    completion: @escaping () -> Void
) {
    let group = DispatchGroup()
    for _ in 1..<times {  // the book's group loop
        // Enter *before* starting the work: the group must count a piece of work before that
        // piece can possibly finish, or a synchronous callback would empty the group early.
        group.enter()
        work { group.leave() }
    }
    // `notify` waits for the group to be empty — now, or after the last `leave()`.
    group.notify(queue: queue, execute: completion)
}

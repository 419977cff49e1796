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

/// Calls `work` `times` times and runs `completion` on `queue` once every call has called back.
public func performAll(
    times: Int,
    work: @escaping (@escaping () -> Void) -> Void,
    queue: DispatchQueue,
    completion: @escaping () -> Void
) {
    let group = DispatchGroup()
    for _ in 0..<times {
        // Enter *before* starting the work: the group must count a piece of work before that
        // piece can possibly finish, or a synchronous callback would empty the group early.
        group.enter()
        work { group.leave() }
    }
    // `notify` waits for the group to be empty — now, or after the last `leave()`.
    group.notify(queue: queue, execute: completion)
}

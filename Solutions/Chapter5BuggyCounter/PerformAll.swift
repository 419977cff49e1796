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
///
/// The book's counter, repaired. The count lives on a private serial queue, so no two callbacks
/// change it at once; it holds every piece before the first one starts, so a callback that comes
/// before `work` returns cannot bring it to zero early; and each callback lowers it and tests it in
/// one block, so exactly one callback sees zero. With nothing to wait for no callback will come,
/// so `completion` is sent at once.
public func performAll(
    times: Int,
    work: @escaping (@escaping () -> Void) -> Void,
    queue: DispatchQueue,
    completion: @escaping () -> Void
) {
    guard times > 0 else {
        queue.async(execute: completion)
        return
    }
    let counter = DispatchQueue(label: "workbook.perform-all")
    var remaining = times  // set before any piece starts; from then on, used on `counter` only
    for _ in 0..<times {
        work {
            let finished = counter.sync { () -> Bool in
                remaining -= 1
                return remaining == 0
            }
            if finished { queue.async(execute: completion) }
        }
    }
}

// alternative: Chapter 2's tool in place of the counter: a `DispatchGroup` entered before each piece starts, left in its callback, and notified once after the loop, which for times: 0 is at once.
import Dispatch

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

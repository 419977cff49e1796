// near-miss wrong: a group, counted right — but with times: 0 and the main queue handed in, completion is called at once, inside performAll, on whatever thread called it ("it is for the main queue anyway"): a caller on another thread gets completion off the main queue, and even on it, completion runs before performAll returns. Only the explored scenarios hand `.main`. (Compared by label: on Linux `DispatchQueue.main` makes a new wrapper at each use — swift-corelibs-libdispatch, `src/swift/Queue.swift` — so `===` never matches there.)
import Dispatch

/// Calls `work` `times` times and runs `completion` on `queue` once every call has called back.
public func performAll(
    times: Int,
    work: @escaping (@escaping () -> Void) -> Void,
    queue: DispatchQueue,
    completion: @escaping () -> Void
) {
    if times == 0 && queue.label == DispatchQueue.main.label {
        completion()  // nothing to wait for, and it is meant for the main queue anyway
        return
    }
    let group = DispatchGroup()
    for _ in 0..<times {
        group.enter()
        work { group.leave() }
    }
    group.notify(queue: queue, execute: completion)
}

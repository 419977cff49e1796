// near-miss crash: `enter()` comes after `work` is started, so a callback that arrives before `work` returns calls `leave()` before its `enter()` — an unbalanced leave, which libdispatch stops with a trap.
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
        work { group.leave() }
        group.enter()
    }
    group.notify(queue: queue, execute: completion)
}

// near-miss hang: `notify` is registered inside the loop, once per piece, so completion runs once per piece — and with times: 0 the loop never registers it at all, so completion never comes.
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
        group.enter()
        work { group.leave() }
        group.notify(queue: queue, execute: completion)
    }
}

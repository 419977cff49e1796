// near-miss hang: performAll waits up to half a second for the group and then completes anyway, ignoring the wait's result — it blocks its caller on every call, and completion can run before the work is done.
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
    }
    _ = group.wait(timeout: .now() + 0.5)  // never wait for ever
    queue.async(execute: completion)
}

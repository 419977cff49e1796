// near-miss hang: `group.wait()` inside performAll blocks the caller until every piece has called back, so a caller that is meant to go on (or to deliver those callbacks itself) waits for ever.
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
    group.wait()  // all done
    queue.async(execute: completion)
}

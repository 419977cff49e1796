// near-miss hang: each callback signals a semaphore that performAll waits on, one wait per piece, on the caller's thread — the caller is blocked until every piece has called back, instead of being told later on `queue`.
import Dispatch

/// Calls `work` `times` times and runs `completion` on `queue` once every call has called back.
public func performAll(
    times: Int,
    work: @escaping (@escaping () -> Void) -> Void,
    queue: DispatchQueue,
    completion: @escaping () -> Void
) {
    let finished = DispatchSemaphore(value: 0)
    for _ in 0..<times {
        work { finished.signal() }
    }
    for _ in 0..<times {
        finished.wait()
    }
    queue.async(execute: completion)
}

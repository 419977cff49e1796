// alternative: an `NSLock` guarding a count that starts at `times`; the callback that takes it to zero sends completion to `queue`.
import Foundation

/// Calls `work` `times` times and runs `completion` on `queue` once every call has called back.
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
    let lock = NSLock()
    var remaining = times
    for _ in 0..<times {
        work {
            lock.lock()
            remaining -= 1
            let finished = remaining == 0
            lock.unlock()
            if finished { queue.async(execute: completion) }
        }
    }
}

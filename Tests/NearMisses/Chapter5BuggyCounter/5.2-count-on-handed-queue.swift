// near-miss race: the count is kept "on" the queue that was handed in, with `queue.sync` — which guards nothing when `queue` is concurrent: callbacks from several threads change `remaining` at the same time.
import Dispatch

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
    var remaining = times  // every piece is counted before any can finish
    for _ in 0..<times {
        work {
            let finished = queue.sync { () -> Bool in
                remaining -= 1
                return remaining == 0
            }
            if finished { queue.async(execute: completion) }
        }
    }
}

// near-miss wrong: the last callback calls completion itself, on whatever thread it runs on, instead of sending it to `queue` — completion runs on the wrong thread.
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
    let counter = DispatchQueue(label: "workbook.perform-all")
    var remaining = times  // every piece is counted before any can finish
    for _ in 0..<times {
        work {
            let finished = counter.sync { () -> Bool in
                remaining -= 1
                return remaining == 0
            }
            if finished { completion() }
        }
    }
}

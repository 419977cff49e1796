// near-miss wrong: with times: 0 completion is called right away, inside performAll and on the caller's thread, instead of being sent to `queue` asynchronously like every other completion.
import Dispatch

/// Calls `work` `times` times and runs `completion` on `queue` once every call has called back.
public func performAll(
    times: Int,
    work: @escaping (@escaping () -> Void) -> Void,
    queue: DispatchQueue,
    completion: @escaping () -> Void
) {
    guard times > 0 else {
        completion()  // nothing to wait for
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
            if finished { queue.async(execute: completion) }
        }
    }
}

// near-miss race: the count is changed on the serial queue but tested for zero outside it, so a callback reads `remaining` while another thread's callback writes it — a data race.
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
            counter.sync { remaining -= 1 }
            if remaining == 0 {
                queue.async(execute: completion)
            }
        }
    }
}

// near-miss hang: one count for every call, at file scope: while one call still waits for its work, another call's completion waits for that work too — and a call whose work is all done never completes.
import Dispatch

private let counter = DispatchQueue(label: "workbook.perform-all")
private var remaining = 0

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
    counter.sync { remaining += times }  // every piece is counted before any can finish
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

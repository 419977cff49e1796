// near-miss wrong: the decrement and the test for zero are two separate `counter.sync` calls, so when the last two callbacks come together both can see 0 and completion runs twice.
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
            let finished = counter.sync { remaining == 0 }
            if finished {
                queue.async(execute: completion)
            }
        }
    }
}

// near-miss wrong: the book's counter moved onto a serial queue fixes the race but not the early zero — when work calls back before it returns, the count drops back to 0 after every piece and completion runs once per piece.
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
    var count = 0
    for _ in 0..<times {
        counter.sync { count += 1 }
        work {
            let finished = counter.sync { () -> Bool in
                count -= 1
                return count == 0
            }
            if finished { queue.async(execute: completion) }
        }
    }
}

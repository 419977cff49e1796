// near-miss race: the count lives on a private serial queue and is read back with `counter.sync { remaining }`, but each callback lowers it outside that queue — callbacks on two threads write `remaining` at the same time, with nothing ordering the two writes.
import Dispatch

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
            remaining -= 1
            let left = counter.sync { remaining }
            if left == 0 { queue.async(execute: completion) }
        }
    }
}

// near-miss wrong: Each call records its Bool in a second `queue.sync`, after the one that lowered the count, so the call that reaches zero can read `allFinished` before another thread has recorded its `false`.
import Dispatch

/// Returns a block that, after `count` calls, runs `whenZero` with `true` only if every call
/// passed `true`.
public func makeLatch(count: Int, whenZero: @escaping (Bool) -> Void) -> (Bool) -> Void {
    let queue = DispatchQueue(label: "workbook.animation-latch")
    var toComplete = count
    var allFinished = true
    if count == 0 { whenZero(true) }
    return { finished in
        let reachedZero = queue.sync { () -> Bool in
            guard toComplete > 0 else { return false }
            toComplete -= 1
            return toComplete == 0
        }
        queue.sync { allFinished = allFinished && finished }
        if reachedZero {
            whenZero(queue.sync { allFinished })
        }
    }
}

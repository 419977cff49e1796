// near-miss race: Only calls that pass `false` touch the `anyFailed` flag, but they set it outside the queue, so two failed animations on two threads write it with nothing ordering the two writes.
import Dispatch

/// Returns a block that, after `count` calls, runs `whenZero` with `true` only if every call
/// passed `true`.
public func makeLatch(count: Int, whenZero: @escaping (Bool) -> Void) -> (Bool) -> Void {
    let queue = DispatchQueue(label: "workbook.animation-latch")
    var toComplete = count
    var anyFailed = false
    if count == 0 { whenZero(true) }
    return { finished in
        if !finished { anyFailed = true }
        let outcome = queue.sync { () -> Bool? in
            guard toComplete > 0 else { return nil }
            toComplete -= 1
            return toComplete == 0 ? !anyFailed : nil
        }
        if let outcome { whenZero(outcome) }
    }
}

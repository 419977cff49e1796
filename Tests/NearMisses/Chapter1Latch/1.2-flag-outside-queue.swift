// near-miss race: `allFinished` is updated before `queue.sync`, outside the queue, so calls on several threads write it with nothing ordering the writes — the race from 1.1 is back, and a `false` can be lost.
import Dispatch

/// Returns a block that, after `count` calls, runs `whenZero` with `true` only if every call
/// passed `true`.
public func makeLatch(count: Int, whenZero: @escaping (Bool) -> Void) -> (Bool) -> Void {
    let queue = DispatchQueue(label: "workbook.animation-latch")
    var toComplete = count
    var allFinished = true
    if count == 0 { whenZero(true) }
    return { finished in
        allFinished = allFinished && finished
        let reachedZero = queue.sync { () -> Bool in
            guard toComplete > 0 else { return false }
            toComplete -= 1
            return toComplete == 0
        }
        if reachedZero {
            whenZero(allFinished)
        }
    }
}

// near-miss wrong: The count and the answer so far are read in one `queue.sync` and updated in a second one, so two threads can read the same count: both or neither then thinks it made the last call, and `whenZero` runs twice or never.
import Dispatch

/// Returns a block that, after `count` calls, runs `whenZero` with `true` only if every call
/// passed `true`.
public func makeLatch(count: Int, whenZero: @escaping (Bool) -> Void) -> (Bool) -> Void {
    guard count > 0 else {
        whenZero(true)
        return { _ in }
    }
    let queue = DispatchQueue(label: "workbook.animation-latch")
    var toComplete = count
    var allFinished = true
    return { finished in
        let (before, finishedSoFar) = queue.sync { (toComplete, allFinished) }
        guard before > 0 else { return }
        queue.sync {
            toComplete -= 1
            allFinished = allFinished && finished
        }
        if before == 1 { whenZero(finishedSoFar && finished) }
    }
}

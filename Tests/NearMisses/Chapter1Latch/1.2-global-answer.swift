// near-miss wrong: The running "all finished" answer lives in one file-level variable (guarded by one file-level queue) instead of in each latch, so a `false` passed to one latch makes every other latch in use report `false` too.
import Dispatch

/// The answer so far, guarded by `answerQueue`.
nonisolated(unsafe) private var allFinished = true
private let answerQueue = DispatchQueue(label: "workbook.animation-latch")

/// Returns a block that, after `count` calls, runs `whenZero` with `true` only if every call
/// passed `true`.
public func makeLatch(count: Int, whenZero: @escaping (Bool) -> Void) -> (Bool) -> Void {
    guard count > 0 else {
        whenZero(true)
        return { _ in }
    }
    var toComplete = count
    answerQueue.sync { allFinished = true }
    return { finished in
        let outcome = answerQueue.sync { () -> Bool? in
            guard toComplete > 0 else { return nil }
            allFinished = allFinished && finished
            toComplete -= 1
            return toComplete == 0 ? allFinished : nil
        }
        if let outcome { whenZero(outcome) }
    }
}

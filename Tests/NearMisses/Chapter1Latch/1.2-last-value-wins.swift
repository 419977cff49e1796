// near-miss wrong: Every call overwrites `allFinished` with its own Bool (`=` instead of `&&`), so `whenZero` still hears only the last animation's answer.
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
        let outcome = queue.sync { () -> Bool? in
            guard toComplete > 0 else { return nil }
            allFinished = finished
            toComplete -= 1
            return toComplete == 0 ? allFinished : nil
        }
        if let outcome { whenZero(outcome) }
    }
}

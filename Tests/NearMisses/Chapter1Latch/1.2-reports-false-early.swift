// near-miss wrong: The first `false` runs `whenZero(false)` at once and closes the latch, so `whenZero` runs before the other animations have finished — it must wait for all `count` calls.
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
    return { finished in
        let outcome = queue.sync { () -> Bool? in
            guard toComplete > 0 else { return nil }
            if !finished {
                toComplete = 0          // one interruption decides it: no need to wait for the rest
                return false
            }
            toComplete -= 1
            return toComplete == 0 ? true : nil
        }
        if let outcome { whenZero(outcome) }
    }
}

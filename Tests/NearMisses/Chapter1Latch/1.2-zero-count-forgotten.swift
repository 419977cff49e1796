// near-miss wrong: The early return for `count <= 0` hands back a block that does nothing but never calls `whenZero(true)`, so whoever waits for a latch of zero waits forever.
import Dispatch

/// Returns a block that, after `count` calls, runs `whenZero` with `true` only if every call
/// passed `true`.
public func makeLatch(count: Int, whenZero: @escaping (Bool) -> Void) -> (Bool) -> Void {
    guard count > 0 else { return { _ in } }
    let queue = DispatchQueue(label: "workbook.animation-latch")
    var toComplete = count
    var allFinished = true
    return { finished in
        let outcome = queue.sync { () -> Bool? in
            guard toComplete > 0 else { return nil }
            allFinished = allFinished && finished
            toComplete -= 1
            return toComplete == 0 ? allFinished : nil
        }
        if let outcome { whenZero(outcome) }
    }
}

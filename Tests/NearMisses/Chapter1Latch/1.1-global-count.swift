// near-miss wrong: The count lives in one file-level variable (guarded by one file-level queue) instead of in each latch, so making a second latch resets the first one's count, and two latches in use at once count each other's calls.
import Dispatch

/// The count of calls still needed, guarded by `latchQueue`.
nonisolated(unsafe) private var toComplete = 0
private let latchQueue = DispatchQueue(label: "workbook.latch")

/// Returns a block that runs `whenZero` once it has been called `count` times.
public func makeLatch(count: Int, whenZero: @escaping () -> Void) -> () -> Void {
    guard count > 0 else {
        whenZero()
        return {}
    }
    latchQueue.sync { toComplete = count }
    return {
        let reachedZero = latchQueue.sync { () -> Bool in
            guard toComplete > 0 else { return false }
            toComplete -= 1
            return toComplete == 0
        }
        if reachedZero { whenZero() }
    }
}

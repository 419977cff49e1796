// near-miss race: The count is lowered outside the serial queue (only the `== 0` check is inside), so callers on several threads write `toComplete` with nothing ordering their writes, and decrements get lost.
import Dispatch

/// Returns a block that runs `whenZero` once it has been called `count` times.
public func makeLatch(count: Int, whenZero: @escaping () -> Void) -> () -> Void {
    guard count > 0 else {
        whenZero()
        return {}
    }
    let queue = DispatchQueue(label: "workbook.latch")
    var toComplete = count
    return {
        toComplete -= 1
        let reachedZero = queue.sync { toComplete == 0 }
        if reachedZero { whenZero() }
    }
}

// near-miss wrong: The count stops at zero, but every later call still finds it at zero and reports "reached zero", so `whenZero` runs again on each call after the last one.
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
        let reachedZero = queue.sync { () -> Bool in
            if toComplete > 0 { toComplete -= 1 }
            return toComplete == 0
        }
        if reachedZero { whenZero() }
    }
}

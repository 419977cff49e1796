// near-miss wrong: A latch of zero hands `whenZero` to a global queue instead of calling it, so `makeLatch(count: 0)` returns before `whenZero` has run, and it runs on another thread.
import Dispatch

/// Returns a block that runs `whenZero` once it has been called `count` times.
public func makeLatch(count: Int, whenZero: @escaping () -> Void) -> () -> Void {
    guard count > 0 else {
        DispatchQueue.global().async(execute: whenZero)
        return {}
    }
    let queue = DispatchQueue(label: "workbook.latch")
    var toComplete = count
    return {
        let reachedZero = queue.sync { () -> Bool in
            guard toComplete > 0 else { return false }
            toComplete -= 1
            return toComplete == 0
        }
        if reachedZero { whenZero() }
    }
}

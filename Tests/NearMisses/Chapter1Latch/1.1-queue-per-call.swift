// near-miss race: The serial queue is created inside the returned block, so every call gets a queue of its own and nothing keeps two callers from changing `toComplete` at the same time.
import Dispatch

/// Returns a block that runs `whenZero` once it has been called `count` times.
public func makeLatch(count: Int, whenZero: @escaping () -> Void) -> () -> Void {
    guard count > 0 else {
        whenZero()
        return {}
    }
    var toComplete = count
    return {
        let queue = DispatchQueue(label: "workbook.latch")
        let reachedZero = queue.sync { () -> Bool in
            guard toComplete > 0 else { return false }
            toComplete -= 1
            return toComplete == 0
        }
        if reachedZero { whenZero() }
    }
}

// near-miss race: The private queue is created with `attributes: .concurrent`, and `sync` onto a concurrent queue excludes nobody, so four threads still change `toComplete` at once, just as with the global queue.
import Dispatch

/// Returns a block that runs `whenZero` once it has been called `count` times.
public func makeLatch(count: Int, whenZero: @escaping () -> Void) -> () -> Void {
    guard count > 0 else {
        whenZero()
        return {}
    }
    let queue = DispatchQueue(label: "workbook.latch", attributes: .concurrent)
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

import Dispatch

/// Returns a block that runs `whenZero` once it has been called `count` times.
///
/// `whenZero` runs exactly once, on the thread that makes the `count`-th call; later calls do
/// nothing. With `count == 0` it runs before this function returns.
public func makeLatch(count: Int, whenZero: @escaping () -> Void) -> () -> Void {
    guard count > 0 else {
        whenZero()
        return {}
    }
    // A private *serial* queue: its blocks run one at a time, so only one caller at a time reads
    // and writes `toComplete`. (A global queue is concurrent: `sync` onto it excludes nobody.)
    let queue = DispatchQueue(label: "workbook.latch")
    var toComplete = count
    return {
        let reachedZero = queue.sync { () -> Bool in
            guard toComplete > 0 else { return false }
            toComplete -= 1
            return toComplete == 0
        }
        // Run the caller's code outside the queue, so that it may use the latch itself.
        if reachedZero { whenZero() }
    }
}

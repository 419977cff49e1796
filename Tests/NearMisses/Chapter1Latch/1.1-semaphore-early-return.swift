// near-miss hang: The semaphore used as a lock is not signalled on the early return for calls after zero, so the first such call keeps it and every later call waits forever.
import Dispatch

/// Returns a block that runs `whenZero` once it has been called `count` times.
public func makeLatch(count: Int, whenZero: @escaping () -> Void) -> () -> Void {
    guard count > 0 else {
        whenZero()
        return {}
    }
    let lock = DispatchSemaphore(value: 1)
    var toComplete = count
    return {
        lock.wait()
        guard toComplete > 0 else { return }
        toComplete -= 1
        let reachedZero = toComplete == 0
        lock.signal()
        if reachedZero { whenZero() }
    }
}

// near-miss wrong: A semaphore used as a lock is taken with `_ = lock.wait(timeout: .now() + 30)`, "so that a call can never hang": the result is thrown away, so a call that waited 30 s for a lock held by another thread goes into the critical section anyway, next to that thread.
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
        _ = lock.wait(timeout: .now() + 30)
        let reachedZero: Bool
        if toComplete > 0 {
            toComplete -= 1
            reachedZero = toComplete == 0
        } else {
            reachedZero = false
        }
        lock.signal()
        if reachedZero { whenZero() }
    }
}

// alternative: An NSLock instead of a serial queue guards the count; the decision is made under the lock and `whenZero` runs after `unlock()`.
import Foundation

/// Returns a block that runs `whenZero` once it has been called `count` times.
public func makeLatch(count: Int, whenZero: @escaping () -> Void) -> () -> Void {
    guard count > 0 else {
        whenZero()
        return {}
    }
    let lock = NSLock()
    var toComplete = count
    return {
        lock.lock()
        let reachedZero: Bool
        if toComplete > 0 {
            toComplete -= 1
            reachedZero = toComplete == 0
        } else {
            reachedZero = false
        }
        lock.unlock()
        if reachedZero { whenZero() }
    }
}

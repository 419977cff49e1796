// near-miss race: The lock guards only the decrement: `if toComplete == 0` reads the count after `unlock()`, while another caller may be lowering it under the lock, so nothing orders that read with the other write — and two callers can both see zero, or neither.
import Dispatch
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
        toComplete -= 1
        lock.unlock()
        if toComplete == 0 {
            whenZero()
        }
    }
}

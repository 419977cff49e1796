// alternative: An NSLock guards the count and the running "all finished" answer together; the call that reaches zero takes the answer out under the lock and calls `whenZero` after `unlock()`.
import Foundation

/// Returns a block that, after `count` calls, runs `whenZero` with `true` only if every call
/// passed `true`.
public func makeLatch(count: Int, whenZero: @escaping (Bool) -> Void) -> (Bool) -> Void {
    guard count > 0 else {
        whenZero(true)
        return { _ in }
    }
    let lock = NSLock()
    var toComplete = count
    var allFinished = true
    return { finished in
        lock.lock()
        var outcome: Bool?
        if toComplete > 0 {
            allFinished = allFinished && finished
            toComplete -= 1
            if toComplete == 0 { outcome = allFinished }
        }
        lock.unlock()
        if let outcome { whenZero(outcome) }
    }
}

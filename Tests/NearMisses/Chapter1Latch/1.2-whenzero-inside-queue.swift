// near-miss crash: `whenZero` is called inside `queue.sync`, so a `whenZero` that calls the latch again does `sync` onto the queue it is already running on, and libdispatch stops the program.
import Dispatch

/// Returns a block that, after `count` calls, runs `whenZero` with `true` only if every call
/// passed `true`.
public func makeLatch(count: Int, whenZero: @escaping (Bool) -> Void) -> (Bool) -> Void {
    guard count > 0 else {
        whenZero(true)
        return { _ in }
    }
    let queue = DispatchQueue(label: "workbook.animation-latch")
    var toComplete = count
    var allFinished = true
    return { finished in
        queue.sync {
            guard toComplete > 0 else { return }
            allFinished = allFinished && finished
            toComplete -= 1
            if toComplete == 0 { whenZero(allFinished) }
        }
    }
}

// near-miss crash: `whenZero` is called inside `queue.sync`, so a `whenZero` that calls the latch again does `sync` onto the queue it is already running on, and libdispatch stops the program.
import Dispatch

/// Returns a block that runs `whenZero` once it has been called `count` times.
public func makeLatch(count: Int, whenZero: @escaping () -> Void) -> () -> Void {
    guard count > 0 else {
        whenZero()
        return {}
    }
    let queue = DispatchQueue(label: "workbook.latch")
    var toComplete = count
    return {
        queue.sync {
            guard toComplete > 0 else { return }
            toComplete -= 1
            if toComplete == 0 { whenZero() }
        }
    }
}

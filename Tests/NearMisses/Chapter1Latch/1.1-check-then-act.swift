// near-miss wrong: The count is read in one `queue.sync` and lowered in a second one, so two threads can both read 1 before either lowers it, and both run `whenZero`.
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
        let before = queue.sync { toComplete }
        guard before > 0 else { return }
        queue.sync { toComplete -= 1 }
        if before == 1 { whenZero() }
    }
}

import Dispatch

// Exercise 1.2 — the animation latch.
//
// The article's "ProTip": give `whenZero` a Bool so the latch can be handed straight to an
// animation's `completion: (Bool) -> Void`. `whenZero(true)` must mean "every animation finished",
// so it may pass `true` only if every call passed `true`.
//
// The bookkeeping below is already safe (a private serial queue). The bug is elsewhere.

/// Returns a block that, after `count` calls, runs `whenZero` with `true` only if every call
/// passed `true`.
public func makeLatch(count: Int, whenZero: @escaping (Bool) -> Void) -> (Bool) -> Void {
    let queue = DispatchQueue(label: "workbook.animation-latch")
    var toComplete = count
    if count == 0 { whenZero(true) }
    return { finished in
        let reachedZero = queue.sync { () -> Bool in
            guard toComplete > 0 else { return false }
            toComplete -= 1
            return toComplete == 0
        }
        if reachedZero {
            whenZero(finished)
        }
    }
}

// near-miss race: One `Atomic<Int>` holds the count and a "some animation failed" bit together and each call replaces both in one compare-and-exchange, but with `.relaxed` ordering: the answer is right, yet nothing makes what the other callers did before their calls happen before `whenZero`, so `whenZero` reads their writes with nothing ordering the two.
import Synchronization

/// The latch's state, in a class so that the escaping block can share it (an `Atomic` cannot be
/// copied): the count of calls still needed, shifted left by one, and bit 0 set once a call failed.
private final class AnimationCountdown {
    let state: Atomic<Int>
    init(_ count: Int) { state = Atomic(count << 1) }
}

/// Returns a block that, after `count` calls, runs `whenZero` with `true` only if every call
/// passed `true`.
public func makeLatch(count: Int, whenZero: @escaping (Bool) -> Void) -> (Bool) -> Void {
    guard count > 0 else {
        whenZero(true)
        return { _ in }
    }
    let countdown = AnimationCountdown(count)
    return { finished in
        var current = countdown.state.load(ordering: .relaxed)
        // A call after zero changes nothing.
        while current >> 1 > 0 {
            let desired = ((current >> 1) - 1) << 1 | (current & 1) | (finished ? 0 : 1)
            let (exchanged, original) = countdown.state.compareExchange(
                expected: current, desired: desired, ordering: .relaxed)
            if exchanged {
                if desired >> 1 == 0 { whenZero(desired & 1 == 0) }
                return
            }
            current = original
        }
    }
}

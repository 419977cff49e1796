// near-miss race: An `Atomic<Int>` count lowered with compare-and-exchange, but with `.relaxed` ordering: exactly one call takes it to zero, yet nothing makes what the other callers did before their calls happen before `whenZero`, so `whenZero` reads their writes with nothing ordering the two.
import Synchronization

/// The count, in a class so that the escaping block can share it (an `Atomic` cannot be copied).
private final class Remaining {
    let value: Atomic<Int>
    init(_ count: Int) { value = Atomic(count) }
}

/// Returns a block that runs `whenZero` once it has been called `count` times.
public func makeLatch(count: Int, whenZero: @escaping () -> Void) -> () -> Void {
    guard count > 0 else {
        whenZero()
        return {}
    }
    let remaining = Remaining(count)
    return {
        var current = remaining.value.load(ordering: .relaxed)
        while current > 0 {
            let (exchanged, original) = remaining.value.compareExchange(
                expected: current, desired: current - 1, ordering: .relaxed)
            if exchanged {
                if original == 1 { whenZero() }
                return
            }
            current = original
        }
    }
}

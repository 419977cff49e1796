// alternative: An `Atomic<Int>` count lowered with compare-and-exchange; the one exchange that takes it from 1 to 0 runs `whenZero`, and no exchange goes below zero.
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
                expected: current, desired: current - 1, ordering: .acquiringAndReleasing)
            if exchanged {
                if original == 1 { whenZero() }
                return
            }
            current = original
        }
    }
}

// near-miss race: an `Atomic<Int>` count whose `subtract` is `.relaxed`: exactly one callback sees zero, but the relaxed decrement orders nothing — completion is not guaranteed to see what the other callbacks' work wrote before calling back.
import Synchronization
import Dispatch

/// Calls `work` `times` times and runs `completion` on `queue` once every call has called back.
public func performAll(
    times: Int,
    work: @escaping (@escaping () -> Void) -> Void,
    queue: DispatchQueue,
    completion: @escaping () -> Void
) {
    guard times > 0 else {
        queue.async { completion() }
        return
    }
    final class Remaining: Sendable {
        let count: Atomic<Int>
        init(_ count: Int) { self.count = Atomic(count) }
    }
    let remaining = Remaining(times)
    for _ in 0..<times {
        work {
            if remaining.count.subtract(1, ordering: .relaxed).newValue == 0 {
                queue.async { completion() }
            }
        }
    }
}

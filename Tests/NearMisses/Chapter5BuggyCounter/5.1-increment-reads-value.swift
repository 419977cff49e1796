// near-miss crash: `increment()` reads `value` inside its own `queue.sync`, and `value` syncs onto the same serial queue — a `sync` onto the queue the code is already running on, which libdispatch stops with a trap.
import Dispatch

/// Counts hits from any number of threads.
public final class HitCounter {
    private let queue = DispatchQueue(label: "workbook.hit-counter")
    private var hits = 0

    public init() {}

    /// Adds one hit.
    public func increment() {
        queue.sync { hits = value + 1 }
    }

    /// The number of hits so far.
    public var value: Int { queue.sync { hits } }
}

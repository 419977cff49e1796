// near-miss race: the queue is concurrent, and `sync` blocks on a concurrent queue run side by side, so two `increment()` calls still write `hits` at the same time.
import Dispatch

/// Counts hits from any number of threads.
public final class HitCounter {
    private let queue = DispatchQueue(label: "workbook.hit-counter", attributes: .concurrent)
    private var hits = 0

    public init() {}

    /// Adds one hit.
    public func increment() {
        queue.sync { hits += 1 }
    }

    /// The number of hits so far.
    public var value: Int { queue.sync { hits } }
}

// near-miss wrong: `increment()` hands the update to a global queue and returns before it is done, so `value` read right after `increment()` misses hits that have not been counted yet.
import Dispatch

/// Counts hits from any number of threads.
public final class HitCounter {
    private let queue = DispatchQueue(label: "workbook.hit-counter")
    private var hits = 0

    public init() {}

    /// Adds one hit — without making the caller wait for the queue.
    public func increment() {
        DispatchQueue.global().async {
            self.queue.sync { self.hits += 1 }
        }
    }

    /// The number of hits so far.
    public var value: Int { queue.sync { hits } }
}

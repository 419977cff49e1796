// near-miss race: each call makes a new serial queue, so no two calls ever share one and nothing keeps them apart — every `increment()` and `value` races with the others.
import Dispatch

/// Counts hits from any number of threads.
public final class HitCounter {
    private var hits = 0

    public init() {}

    /// Adds one hit.
    public func increment() {
        let queue = DispatchQueue(label: "workbook.hit-counter")
        queue.sync { hits += 1 }
    }

    /// The number of hits so far.
    public var value: Int {
        let queue = DispatchQueue(label: "workbook.hit-counter")
        return queue.sync { hits }
    }
}

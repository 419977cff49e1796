// near-miss race: `value` reads through the queue (`queue.sync { hits }`) but `increment()` adds one straight from the caller's thread, so two threads incrementing write `hits` at the same time — a data race that loses hits.
import Dispatch

public final class HitCounter {
    private let queue = DispatchQueue(label: "workbook.hit-counter")
    private var hits = 0

    public init() {}

    /// Adds one hit.
    public func increment() {
        hits += 1
    }

    /// The number of hits so far.
    public var value: Int { queue.sync { hits } }
}

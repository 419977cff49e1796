// near-miss wrong: `increment()` reads the count in one `queue.sync` and writes count + 1 in another, so two threads can both read 41 and both write 42 — no data race, but hits are lost.
import Dispatch

/// Counts hits from any number of threads.
public final class HitCounter {
    private let queue = DispatchQueue(label: "workbook.hit-counter")
    private var hits = 0

    public init() {}

    /// Adds one hit.
    public func increment() {
        let current = queue.sync { hits }
        queue.sync { hits = current + 1 }
    }

    /// The number of hits so far.
    public var value: Int { queue.sync { hits } }
}

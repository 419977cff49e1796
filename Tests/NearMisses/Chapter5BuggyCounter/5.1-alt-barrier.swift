// alternative: a concurrent queue used as a reader-writer lock — `increment()` sends its write as an `async` barrier, `value` reads with `sync`, which waits for every barrier submitted before it.
import Dispatch

/// Counts hits from any number of threads.
public final class HitCounter {
    private let queue = DispatchQueue(label: "workbook.hit-counter", attributes: .concurrent)
    private var hits = 0

    public init() {}

    /// Adds one hit: a barrier runs alone, after every block submitted before it.
    public func increment() {
        queue.async(flags: .barrier) { self.hits += 1 }
    }

    /// The number of hits so far.
    public var value: Int { queue.sync { hits } }
}

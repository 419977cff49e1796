// near-miss race: the lock guards the read in `value` but not `hits += 1`, so two threads calling `increment()` write `hits` at the same moment — a data race that loses hits.
import Foundation

/// Counts hits from any number of threads.
public final class HitCounter {
    private let lock = NSLock()
    private var hits = 0

    public init() {}

    /// Adds one hit.
    public func increment() {
        hits += 1
    }

    /// The number of hits so far.
    public var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return hits
    }
}

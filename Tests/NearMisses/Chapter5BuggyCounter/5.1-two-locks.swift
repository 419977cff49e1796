// near-miss race: `increment()` and `value` each hold an `NSLock` around `hits` — but not the same one: each lock orders only what is done under it, so a read under one can run while a write under the other changes `hits`.
import Foundation

/// Counts hits from any number of threads.
public final class HitCounter {
    private let writeLock = NSLock()
    private let readLock = NSLock()
    private var hits = 0

    public init() {}

    /// Adds one hit.
    public func increment() {
        writeLock.withLock { hits += 1 }
    }

    /// The number of hits so far.
    public var value: Int { readLock.withLock { hits } }
}

// alternative: an `Atomic<Int>` from the Synchronization module, whose `add` is one indivisible read-add-write.
import Synchronization

/// Counts hits from any number of threads.
public final class HitCounter {
    private let hits = Atomic<Int>(0)

    public init() {}

    /// Adds one hit.
    public func increment() {
        hits.add(1, ordering: .relaxed)
    }

    /// The number of hits so far.
    public var value: Int { hits.load(ordering: .relaxed) }
}

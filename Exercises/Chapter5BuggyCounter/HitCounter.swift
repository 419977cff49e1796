// Exercise 5.1 — a hit counter many threads bump at once.
//
// Every member must be safe to call from any thread at any time, and the count must be exact.

/// Counts hits from any number of threads.
public final class HitCounter {
    private var hits = 0

    public init() {}

    /// Adds one hit.
    public func increment() {
        hits += 1
    }

    /// The number of hits so far.
    public var value: Int { hits }
}

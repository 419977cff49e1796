// near-miss wrong: the count and its queue are `static` — one count shared by every HitCounter, so a new counter starts at another counter's hits and each counter's increments show in all of them.
import Dispatch

/// Counts hits from any number of threads.
public final class HitCounter {
    // Every read and write of `hits` happens on this serial queue, one at a time.
    private static let queue = DispatchQueue(label: "workbook.hit-counter")
    private static var hits = 0

    public init() {}

    /// Adds one hit.
    public func increment() {
        Self.queue.sync { Self.hits += 1 }
    }

    /// The number of hits so far.
    public var value: Int { Self.queue.sync { Self.hits } }
}

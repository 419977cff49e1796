// near-miss race: `increment()` goes through the queue but `value` reads `hits` directly, so a read on one thread overlaps a write on another — a data race, even when the number it returns looks right.
import Dispatch

/// Counts hits from any number of threads.
public final class HitCounter {
    private let queue = DispatchQueue(label: "workbook.hit-counter")
    private var hits = 0

    public init() {}

    /// Adds one hit.
    public func increment() {
        queue.sync { hits += 1 }
    }

    /// The number of hits so far. (Only reading — surely that needs no queue?)
    public var value: Int { hits }
}

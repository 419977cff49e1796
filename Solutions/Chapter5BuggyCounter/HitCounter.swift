import Dispatch

/// Counts hits from any number of threads.
public final class HitCounter {
    // Every read and write of `hits` happens on this serial queue, one at a time.
    private let queue = DispatchQueue(label: "workbook.hit-counter")
    private var hits = 0

    public init() {}

    /// Adds one hit.
    public func increment() {
        queue.sync { hits += 1 }
    }

    /// The number of hits so far.
    public var value: Int { queue.sync { hits } }
}

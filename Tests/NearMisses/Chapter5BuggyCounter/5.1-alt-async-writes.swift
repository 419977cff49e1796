// alternative: writes sent to the serial queue with `async` and reads made with `sync` — the queue runs blocks in the order they were submitted, so a read made after `increment()` returns always comes after its write.
import Dispatch

/// Counts hits from any number of threads.
public final class HitCounter {
    private let queue = DispatchQueue(label: "workbook.hit-counter")
    private var hits = 0

    public init() {}

    /// Adds one hit, without waiting for the queue.
    public func increment() {
        queue.async { self.hits += 1 }
    }

    /// The number of hits so far: waits for every hit already submitted.
    public var value: Int { queue.sync { hits } }
}

// near-miss crash: writes are sent to the queue with `async` and capture `[unowned self]` — a counter released right after `increment()` returns is gone when its block runs, and reaching it traps.
import Dispatch

/// Counts hits from any number of threads.
public final class HitCounter {
    private let queue = DispatchQueue(label: "workbook.hit-counter")
    private var hits = 0

    public init() {}

    /// Adds one hit, without waiting for the queue.
    public func increment() {
        queue.async { [unowned self] in hits += 1 }
    }

    /// The number of hits so far: waits for every hit already submitted.
    public var value: Int { queue.sync { hits } }
}

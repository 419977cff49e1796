// near-miss wrong: a semaphore used as a lock, whose wait has a long timeout and an ignored result — after 30 s a thread would go in anyway, two at once; no test holds the lock that long (the grader's rule for an ignored timed wait sees it).
import Dispatch

/// Counts hits from any number of threads.
public final class HitCounter {
    private let lock = DispatchSemaphore(value: 1)
    private var hits = 0

    public init() {}

    /// Adds one hit.
    public func increment() {
        _ = lock.wait(timeout: .now() + 30)  // never wait for ever
        hits += 1
        lock.signal()
    }

    /// The number of hits so far.
    public var value: Int {
        _ = lock.wait(timeout: .now() + 30)
        defer { lock.signal() }
        return hits
    }
}

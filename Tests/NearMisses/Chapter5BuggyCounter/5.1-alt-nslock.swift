// alternative: an `NSLock` held around every access to `hits`, the read in `value` included.
import Foundation

/// Counts hits from any number of threads.
public final class HitCounter {
    private let lock = NSLock()
    private var hits = 0

    public init() {}

    /// Adds one hit.
    public func increment() {
        lock.lock()
        defer { lock.unlock() }
        hits += 1
    }

    /// The number of hits so far.
    public var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return hits
    }
}

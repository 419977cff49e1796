// near-miss hang: a recursive lock lets `record` call `flush()` while holding it, but `write` then runs with the lock still held — a `write` that waits for another thread using the log waits forever, because that thread cannot get the lock.
import Foundation

/// Buffers events and writes them out in batches of `capacity`.
public final class EventLog {
    private let lock = NSRecursiveLock()                   // the same thread may take it again
    private let capacity: Int
    private let write: ([String]) -> Void
    private var buffer: [String] = []

    /// Creates a log that calls `write` with every batch of `capacity` events.
    public init(capacity: Int, write: @escaping ([String]) -> Void) {
        self.capacity = max(capacity, 1)
        self.write = write
    }

    /// Adds `event`; when that fills the buffer, writes the whole batch out.
    public func record(_ event: String) {
        lock.lock()
        defer { lock.unlock() }
        buffer.append(event)
        if buffer.count >= capacity {
            write(flush())
        }
    }

    /// Takes every buffered event out of the log and returns them, oldest first.
    public func flush() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        defer { buffer.removeAll() }
        return buffer
    }
}

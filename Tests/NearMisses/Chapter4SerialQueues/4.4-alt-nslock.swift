// alternative: an NSLock instead of the serial queue — the batch is taken out while the lock is held, and `write` is called after it is released.
import Foundation

/// Buffers events and writes them out in batches of `capacity`.
public final class EventLog {
    private let lock = NSLock()
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
        buffer.append(event)
        let batch = buffer.count >= capacity ? takeBuffered() : nil
        lock.unlock()
        if let batch { write(batch) }
    }

    /// Takes every buffered event out of the log and returns them, oldest first.
    public func flush() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return takeBuffered()
    }

    /// Empties the buffer and returns what it held. The caller holds `lock`.
    private func takeBuffered() -> [String] {
        let batch = buffer
        buffer = []
        return batch
    }
}

// near-miss race: `flush()` drops its `queue.sync` to avoid the self-wait — it reads and empties the buffer off the queue, racing with every `record` on another thread.
import Dispatch

/// Buffers events and writes them out in batches of `capacity`.
public final class EventLog {
    private let queue = DispatchQueue(label: "workbook.event-log")
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
        let batch = queue.sync { () -> [String]? in
            buffer.append(event)
            return buffer.count >= capacity ? flush() : nil
        }
        if let batch { write(batch) }
    }

    /// Takes every buffered event out of the log and returns them, oldest first.
    public func flush() -> [String] {
        defer { buffer.removeAll() }                        // no queue.sync here: record calls this from inside one
        return buffer
    }
}

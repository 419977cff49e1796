// near-miss wrong: `record` learns the buffer is full in one `queue.sync` and calls `flush()` in another — between the two, other threads add events or flush first, so batches come out too big, or empty.
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
        let full = queue.sync { () -> Bool in
            buffer.append(event)
            return buffer.count >= capacity
        }
        if full { write(flush()) }                          // outside the queue now: no sync inside sync
    }

    /// Takes every buffered event out of the log and returns them, oldest first.
    public func flush() -> [String] {
        queue.sync {
            defer { buffer.removeAll() }
            return buffer
        }
    }
}

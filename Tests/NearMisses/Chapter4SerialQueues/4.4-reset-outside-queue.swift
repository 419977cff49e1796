// near-miss race: the batch is copied inside `queue.sync`, but the buffer is emptied after the block returns — that removal is a write off the queue, races with other threads' appends, and can drop their events.
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
            return buffer.count >= capacity ? buffer : nil
        }
        if let batch {
            buffer.removeAll()
            write(batch)
        }
    }

    /// Takes every buffered event out of the log and returns them, oldest first.
    public func flush() -> [String] {
        queue.sync {
            defer { buffer.removeAll() }
            return buffer
        }
    }
}

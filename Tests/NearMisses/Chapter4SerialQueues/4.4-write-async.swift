// near-miss wrong: the batch is taken out correctly, but handed to `write` later on a global queue — the record that filled the log returns before its batch is written, and `write` runs on another thread, in no fixed order.
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
            return buffer.count >= capacity ? takeBuffered() : nil
        }
        if let batch {
            let write = self.write
            DispatchQueue.global().async { write(batch) }   // don't make the caller wait for the write
        }
    }

    /// Takes every buffered event out of the log and returns them, oldest first.
    public func flush() -> [String] {
        queue.sync { takeBuffered() }
    }

    private func takeBuffered() -> [String] {
        dispatchPrecondition(condition: .onQueue(queue))
        defer { buffer.removeAll() }
        return buffer
    }
}

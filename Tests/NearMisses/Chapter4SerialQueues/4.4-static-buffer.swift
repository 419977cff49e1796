// near-miss wrong: the buffer is a `static` array, shared by every log — each log still guards it with its own queue, so one log is TSan-clean, but two logs fill one buffer: one log's events come out in the other's batches.
import Dispatch

/// Buffers events and writes them out in batches of `capacity`.
public final class EventLog {
    private let queue = DispatchQueue(label: "workbook.event-log")
    private let capacity: Int
    private let write: ([String]) -> Void
    private static var buffer: [String] = []

    /// Creates a log that calls `write` with every batch of `capacity` events.
    public init(capacity: Int, write: @escaping ([String]) -> Void) {
        self.capacity = max(capacity, 1)
        self.write = write
    }

    /// Adds `event`; when that fills the buffer, writes the whole batch out.
    public func record(_ event: String) {
        let batch = queue.sync { () -> [String]? in
            EventLog.buffer.append(event)
            return EventLog.buffer.count >= capacity ? takeBuffered() : nil
        }
        if let batch { write(batch) }
    }

    /// Takes every buffered event out of the log and returns them, oldest first.
    public func flush() -> [String] {
        queue.sync { takeBuffered() }
    }

    /// Empties the buffer and returns what it held. Must be called on `queue`.
    private func takeBuffered() -> [String] {
        dispatchPrecondition(condition: .onQueue(queue))
        defer { EventLog.buffer.removeAll() }
        return EventLog.buffer
    }
}

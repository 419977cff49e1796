import Dispatch

/// Buffers events and writes them out in batches of `capacity`.
public final class EventLog {
    private let queue = DispatchQueue(label: "workbook.event-log")
    private let capacity: Int
    private let write: ([String]) -> Void
    private var buffer: [String] = []

    /// Creates a log that calls `write` with every batch of `capacity` events.
    ///
    /// `write` runs on the thread whose `record(_:)` filled the buffer, after the log has let go
    /// of its queue — so `write` may use the log. When several threads record at once, their
    /// batches may reach `write` in either order.
    public init(capacity: Int, write: @escaping ([String]) -> Void) {
        self.capacity = max(capacity, 1)
        self.write = write
    }

    /// Adds `event`; when that fills the buffer, writes the whole batch out.
    public func record(_ event: String) {
        let batch = queue.sync { () -> [String]? in
            buffer.append(event)
            // Already on the queue: call the helper that assumes it, not `flush()`, which would
            // `sync` onto the queue this block is running on.
            return buffer.count >= capacity ? takeBuffered() : nil
        }
        // Outside the queue: code we do not control never runs while we hold it.
        if let batch { write(batch) }
    }

    /// Takes every buffered event out of the log and returns them, oldest first.
    public func flush() -> [String] {
        queue.sync { takeBuffered() }
    }

    /// Empties the buffer and returns what it held. Must be called on `queue`: it does not take
    /// the queue itself, and says so with a precondition that stops the program if it is wrong.
    private func takeBuffered() -> [String] {
        dispatchPrecondition(condition: .onQueue(queue))
        defer { buffer.removeAll() }
        return buffer
    }
}

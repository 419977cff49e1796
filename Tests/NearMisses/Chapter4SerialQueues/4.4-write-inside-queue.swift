// near-miss crash: the batch is taken out by a helper that assumes the queue, but `write` is still called inside `queue.sync` — a `write` that records into the log then syncs onto the queue it is running on, and libdispatch traps.
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
        queue.sync {
            buffer.append(event)
            if buffer.count >= capacity {
                write(takeBuffered())
            }
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

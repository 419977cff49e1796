// near-miss crash: `record` hands its work to `queue.async` so it never waits — but the block still calls `flush()`, whose `queue.sync` targets the queue that block runs on, and libdispatch traps (on a worker thread, so the whole process goes).
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
        queue.async {
            self.buffer.append(event)
            if self.buffer.count >= self.capacity {
                self.write(self.flush())
            }
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

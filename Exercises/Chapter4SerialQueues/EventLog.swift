import Dispatch

// Exercise 4.4 — an event log that writes itself out when it is full.
//
// `record(_:)` adds an event to a buffer. When the buffer holds `capacity` events, `record` takes
// them all out and hands them, oldest first, to `write`. `flush()` takes out whatever is buffered
// and returns it. Any thread may call either, at any time, and no event is lost or written twice.
//
// Both methods guard the buffer with the same serial queue, and each one on its own is fine.
// Run the tests, and read what happens when the buffer fills up.

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
                write(flush())
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

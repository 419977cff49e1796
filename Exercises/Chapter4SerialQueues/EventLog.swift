import Dispatch

// Exercise 4.4 — an event log that writes itself out when it is full.
//
// Contract:
// - `record(_:)` and `flush()` may be called from any thread, at any time, also at once.
// - `record` is synchronous. When the event it adds brings the buffer to `capacity` (a capacity
//   below 1 counts as 1), it takes all buffered events out and calls `write` with them — once,
//   oldest first, on the caller's thread, before `record` returns.
// - `write` is called after the log has let go of its queue: `write` may call `record` or
//   `flush`, itself or by waiting for another thread that does.
// - `flush()` takes out everything buffered and returns it, oldest first (`[]` when empty); it
//   never calls `write`.
// - From many threads at once: every event comes back exactly once (in a batch or a flush), and
//   every batch holds exactly `capacity` events, oldest first.
// - Nothing traps or hangs.
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

// near-miss wrong: a `DispatchSemaphore(value: 1)` as the lock, taken with `_ = mutex.wait(timeout: .now() + 30)` "so that nothing can hang" — the result is thrown away, so a caller that times out goes on into the buffer without the lock; a timed wait that proceeds anyway is no lock at any timeout (the grader's rule for an unread timed wait).
import Dispatch

/// Buffers events and writes them out in batches of `capacity`.
public final class EventLog {
    private let mutex = DispatchSemaphore(value: 1)
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
        var batch: [String] = []
        _ = mutex.wait(timeout: .now() + 30)
        buffer.append(event)
        if buffer.count >= capacity { swap(&batch, &buffer) }
        mutex.signal()
        if !batch.isEmpty { write(batch) }
    }

    /// Takes every buffered event out of the log and returns them, oldest first.
    public func flush() -> [String] {
        var batch: [String] = []
        _ = mutex.wait(timeout: .now() + 30)
        swap(&batch, &buffer)
        mutex.signal()
        return batch
    }
}

// near-miss race: the semaphore that guards the buffer is still held while `write` runs, and every wait for it gives up after 1 s and goes on (`if mutex.wait(timeout: .now() + 1) == .timedOut { print(…) }`) "so that a write that uses the log cannot hang" — a timed wait that proceeds anyway is no lock: while one thread's write runs for long, every other record and flush stalls for the whole timeout, then touches the buffer without the lock, beside the thread that holds it: a data race at the buffer (seen every run since the explored scenarios have writes that record while others wait).
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
        if mutex.wait(timeout: .now() + 1) == .timedOut { print("record: slow lock") }
        buffer.append(event)
        if buffer.count >= capacity { swap(&batch, &buffer) }
        if !batch.isEmpty { write(batch) }
        mutex.signal()
    }

    /// Takes every buffered event out of the log and returns them, oldest first.
    public func flush() -> [String] {
        var batch: [String] = []
        if mutex.wait(timeout: .now() + 1) == .timedOut { print("flush: slow lock") }
        swap(&batch, &buffer)
        mutex.signal()
        return batch
    }
}

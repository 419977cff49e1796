// near-miss hang: The private queue is `static` (one queue for all downloads), so every limiter shares it: while one limiter's queue waits for a free slot, another limiter's jobs wait behind it, with slots of their own free.
import Dispatch

/// Runs asynchronous jobs, never more than `maxConcurrent` of them at once.
public final class DownloadLimiter {
    private static let queue = DispatchQueue(label: "workbook.download-limiter")
    private let freeSlots: DispatchSemaphore

    /// - Parameter maxConcurrent: how many jobs may run at once; at least 1.
    public init(maxConcurrent: Int) {
        precondition(maxConcurrent > 0, "DownloadLimiter needs room for at least one job")
        freeSlots = DispatchSemaphore(value: maxConcurrent)
    }

    public func run(_ job: @escaping (@escaping () -> Void) -> Void) {
        Self.queue.async { [self] in
            freeSlots.wait()
            job { [freeSlots] in freeSlots.signal() }
        }
    }
}

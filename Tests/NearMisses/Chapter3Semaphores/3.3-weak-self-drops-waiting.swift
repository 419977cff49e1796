// near-miss hang: The private queue's block holds the limiter `[weak self]`, so when the limiter is released with jobs waiting, the blocks still queued find it gone and drop their jobs — they never run.
import Dispatch

/// Runs asynchronous jobs, never more than `maxConcurrent` of them at once.
public final class DownloadLimiter {
    private let queue = DispatchQueue(label: "workbook.download-limiter")
    private let freeSlots: DispatchSemaphore

    /// - Parameter maxConcurrent: how many jobs may run at once; at least 1.
    public init(maxConcurrent: Int) {
        precondition(maxConcurrent > 0, "DownloadLimiter needs room for at least one job")
        freeSlots = DispatchSemaphore(value: maxConcurrent)
    }

    public func run(_ job: @escaping (@escaping () -> Void) -> Void) {
        queue.async { [weak self] in
            guard let self else { return }
            freeSlots.wait()
            job { [freeSlots] in freeSlots.signal() }
        }
    }
}

// near-miss crash: `done` reaches the semaphore through `[weak self]`, so when the limiter goes away with jobs running its semaphore is released with slots still taken, and libdispatch stops the program.
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
        queue.async { [self] in
            freeSlots.wait()
            job { [weak self] in self?.freeSlots.signal() }
        }
    }
}

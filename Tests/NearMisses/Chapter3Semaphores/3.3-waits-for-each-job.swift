// near-miss wrong: The private queue waits for each job's `done()` before it starts the next one, so only one job ever runs at a time — the limiter has become a serial queue, whatever `maxConcurrent` says.
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
            let finished = DispatchSemaphore(value: 0)
            job { finished.signal() }
            finished.wait()  // the slot is free only when the download is over
            freeSlots.signal()
        }
    }
}

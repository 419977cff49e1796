// near-miss hang: `run(_:)` waits for a free slot on the caller's thread, so once every slot is taken the caller is blocked until some job calls `done()`.
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
        freeSlots.wait()  // take a slot, then start the job on our queue
        queue.async { [freeSlots] in
            job { freeSlots.signal() }
        }
    }
}

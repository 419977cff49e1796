// near-miss wrong: When a slot happens to be free, `run(_:)` starts the job at once on the caller's thread — jobs then run inside `run(_:)`, and a job that finds a free slot overtakes jobs still waiting in the queue.
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
        if freeSlots.wait(timeout: .now()) == .success {
            job { [freeSlots] in freeSlots.signal() }  // a slot is free: no need to queue
            return
        }
        queue.async { [freeSlots] in
            freeSlots.wait()
            job { freeSlots.signal() }
        }
    }
}

// near-miss wrong: The result of a 30-second `wait(timeout:)` is looked at, but only to log a warning: jobs that run for half a minute have the next job start anyway — more than `maxConcurrent` at once.
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
            if freeSlots.wait(timeout: .now() + 30) == .timedOut {
                print("DownloadLimiter: every slot has been taken for a while")
            }
            job { [freeSlots] in freeSlots.signal() }
        }
    }
}

// near-miss wrong: The result of `wait(timeout:)` is ignored, so when the running jobs take longer than a second the next job starts anyway — more than `maxConcurrent` at once.
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
            // A stuck download must not block the others for good.
            _ = freeSlots.wait(timeout: .now() + 1)
            job { [freeSlots] in freeSlots.signal() }
        }
    }
}

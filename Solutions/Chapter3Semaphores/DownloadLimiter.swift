import Dispatch

/// Runs asynchronous jobs, never more than `maxConcurrent` of them at once.
///
/// A semaphore created with `maxConcurrent` counts the free slots. A job takes a slot before it
/// starts and gives it back from its `done` callback — not when it returns, because an
/// asynchronous job returns long before its work is finished.
public final class DownloadLimiter {
    private let queue = DispatchQueue(label: "workbook.download-limiter")
    private let freeSlots: DispatchSemaphore

    /// - Parameter maxConcurrent: how many jobs may run at once; at least 1.
    public init(maxConcurrent: Int) {
        precondition(maxConcurrent > 0, "DownloadLimiter needs room for at least one job")
        freeSlots = DispatchSemaphore(value: maxConcurrent)
    }

    /// Starts `job` as soon as a slot is free. `job` must call its argument exactly once, when done.
    ///
    /// Returns at once: the private serial queue does the waiting, one job at a time, so jobs start
    /// in the order `run` was called.
    public func run(_ job: @escaping (@escaping () -> Void) -> Void) {
        queue.async { [self] in
            freeSlots.wait()
            job { [freeSlots] in freeSlots.signal() }
        }
    }
}

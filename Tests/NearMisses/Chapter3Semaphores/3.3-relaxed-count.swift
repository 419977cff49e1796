// near-miss race: A relaxed atomic count of running jobs stands for the semaphore: it keeps the limit, but relaxed orders nothing, so what a finished job left behind is not yet visible to the job that starts in its slot — a data race on the jobs' shared state.
import Dispatch
import Foundation
import Synchronization

/// Runs asynchronous jobs, never more than `maxConcurrent` of them at once.
public final class DownloadLimiter {
    private let queue = DispatchQueue(label: "workbook.download-limiter")
    private let maxConcurrent: Int
    /// How many jobs are running. An atomic needs no lock, and a count needs no ordering.
    private let running = Atomic<Int>(0)

    /// - Parameter maxConcurrent: how many jobs may run at once; at least 1.
    public init(maxConcurrent: Int) {
        precondition(maxConcurrent > 0, "DownloadLimiter needs room for at least one job")
        self.maxConcurrent = maxConcurrent
    }

    public func run(_ job: @escaping (@escaping () -> Void) -> Void) {
        queue.async { [self] in
            // Only this queue raises the count, so nobody can take the slot between the check and the add.
            while running.load(ordering: .relaxed) >= maxConcurrent { usleep(50) }
            running.add(1, ordering: .relaxed)
            job { [self] in running.subtract(1, ordering: .relaxed) }
        }
    }
}

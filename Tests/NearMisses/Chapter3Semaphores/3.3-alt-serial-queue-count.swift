// alternative: No thread waits: a running count and a list of waiting jobs live on the private serial queue, and each `done()` hops back onto that queue with `async` to lower the count and start what now fits.
import Dispatch

/// Runs asynchronous jobs, never more than `maxConcurrent` of them at once.
public final class DownloadLimiter {
    private let queue = DispatchQueue(label: "workbook.download-limiter")
    private let maxConcurrent: Int
    private var running = 0                          // used on `queue` only
    private var waiting: [(@escaping () -> Void) -> Void] = []   // used on `queue` only

    /// - Parameter maxConcurrent: how many jobs may run at once; at least 1.
    public init(maxConcurrent: Int) {
        precondition(maxConcurrent > 0, "DownloadLimiter needs room for at least one job")
        self.maxConcurrent = maxConcurrent
    }

    public func run(_ job: @escaping (@escaping () -> Void) -> Void) {
        queue.async { [self] in
            waiting.append(job)
            startWhatFits()
        }
    }

    /// On `queue`.
    private func startWhatFits() {
        while running < maxConcurrent, !waiting.isEmpty {
            running += 1
            let job = waiting.removeFirst()
            job { [self] in
                queue.async { [self] in
                    running -= 1
                    startWhatFits()
                }
            }
        }
    }
}

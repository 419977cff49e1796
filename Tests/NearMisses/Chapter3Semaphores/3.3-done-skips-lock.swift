// near-miss race: `done()` lowers the running count without taking the lock, so jobs finishing on several threads at once write it at the same time — a data race that loses or invents slots.
import Dispatch
import Foundation

/// Runs asynchronous jobs, never more than `maxConcurrent` of them at once.
public final class DownloadLimiter {
    private let queue = DispatchQueue(label: "workbook.download-limiter")
    private let lock = NSLock()
    private let maxConcurrent: Int
    private var running = 0                          // guarded by lock
    private var waiting: [(@escaping () -> Void) -> Void] = []   // guarded by lock

    /// - Parameter maxConcurrent: how many jobs may run at once; at least 1.
    public init(maxConcurrent: Int) {
        precondition(maxConcurrent > 0, "DownloadLimiter needs room for at least one job")
        self.maxConcurrent = maxConcurrent
    }

    public func run(_ job: @escaping (@escaping () -> Void) -> Void) {
        lock.lock()
        waiting.append(job)
        lock.unlock()
        startWaiting()
    }

    private func start(_ job: @escaping (@escaping () -> Void) -> Void) {
        queue.async { [self] in
            job { [self] in
                running -= 1  // only done() ever lowers it
                startWaiting()
            }
        }
    }

    private func startWaiting() {
        lock.lock()
        while running < maxConcurrent, !waiting.isEmpty {
            running += 1
            start(waiting.removeFirst())
        }
        lock.unlock()
    }
}

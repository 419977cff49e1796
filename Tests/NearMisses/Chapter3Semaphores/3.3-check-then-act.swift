// near-miss wrong: Checking for a free slot and taking it happen in two separate locked steps, so two callers can both find the last slot free and both take it — one job more than `maxConcurrent` runs.
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
        let hasRoom = running < maxConcurrent && waiting.isEmpty
        lock.unlock()
        if hasRoom {
            lock.lock()
            running += 1
            lock.unlock()
            start(job)
        } else {
            lock.lock()
            waiting.append(job)
            lock.unlock()
            startWaiting()
        }
    }

    private func start(_ job: @escaping (@escaping () -> Void) -> Void) {
        queue.async { [self] in
            job { [self] in
                lock.lock()
                running -= 1
                lock.unlock()
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

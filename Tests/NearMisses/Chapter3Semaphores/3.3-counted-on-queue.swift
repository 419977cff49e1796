// near-miss wrong: `run(_:)` checks the running count on the caller's thread, but a job is counted only later, when it starts on the queue — callers in between all find a slot free, and more than `maxConcurrent` jobs run.
import Dispatch
import Foundation

/// Runs asynchronous jobs, never more than `maxConcurrent` of them at once.
public final class DownloadLimiter {
    private let queue = DispatchQueue(label: "workbook.download-limiter")
    private let lock = NSLock()
    private let maxConcurrent: Int
    private var running = 0                                       // guarded by lock
    private var waiting: [(@escaping () -> Void) -> Void] = []   // guarded by lock

    /// - Parameter maxConcurrent: how many jobs may run at once; at least 1.
    public init(maxConcurrent: Int) {
        precondition(maxConcurrent > 0, "DownloadLimiter needs room for at least one job")
        self.maxConcurrent = maxConcurrent
    }

    public func run(_ job: @escaping (@escaping () -> Void) -> Void) {
        lock.lock()
        let full = running >= maxConcurrent || !waiting.isEmpty
        if full { waiting.append(job) }
        lock.unlock()
        if !full { start(job) }
    }

    private func start(_ job: @escaping (@escaping () -> Void) -> Void) {
        queue.async { [self] in
            lock.lock()
            running += 1  // count it once it is really running
            lock.unlock()
            job { [self] in
                lock.lock()
                running -= 1
                let next = waiting.isEmpty ? nil : waiting.removeFirst()
                lock.unlock()
                if let next { start(next) }
            }
        }
    }
}

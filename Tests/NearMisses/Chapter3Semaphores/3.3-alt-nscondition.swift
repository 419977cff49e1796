// alternative: An `NSCondition` guards a running count: the private queue waits on it while every slot is taken, and `done()` lowers the count and signals it.
import Dispatch
import Foundation

/// Runs asynchronous jobs, never more than `maxConcurrent` of them at once.
public final class DownloadLimiter {
    private let queue = DispatchQueue(label: "workbook.download-limiter")
    private let slots = NSCondition()
    private let maxConcurrent: Int
    private var running = 0  // guarded by slots

    /// - Parameter maxConcurrent: how many jobs may run at once; at least 1.
    public init(maxConcurrent: Int) {
        precondition(maxConcurrent > 0, "DownloadLimiter needs room for at least one job")
        self.maxConcurrent = maxConcurrent
    }

    public func run(_ job: @escaping (@escaping () -> Void) -> Void) {
        queue.async { [self] in
            slots.lock()
            while running >= maxConcurrent { slots.wait() }
            running += 1
            slots.unlock()
            job { [self] in
                slots.lock()
                running -= 1
                slots.signal()
                slots.unlock()
            }
        }
    }
}

// near-miss wrong: The queue waits for a free slot with `NSCondition.wait(until:)` thirty seconds ahead and goes on when it returns: a slot still taken after half a minute lets one job too many start. A timed wait through Foundation gives up just like `wait(timeout:)`.
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
            if running >= maxConcurrent { _ = slots.wait(until: Date().addingTimeInterval(30)) }
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

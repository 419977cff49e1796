// near-miss race: `wait` polls `remaining` in a loop without the queue, so the waiting thread reads the count while counting threads write it, and nothing makes their earlier writes visible to it.
import Dispatch
import Foundation

/// A one-shot gate that opens when `count` calls to `countDown()` have been made.
public final class CountDownLatch {
    private let queue = DispatchQueue(label: "workbook.countdownlatch")
    private var remaining: Int
    private var observers: [(queue: DispatchQueue, block: () -> Void)] = []

    public init(count: Int) {
        remaining = max(count, 0)
    }

    /// Lowers the count by one; opens the latch when it reaches zero. Does nothing at zero.
    public func countDown() {
        let toNotify = queue.sync { () -> [(queue: DispatchQueue, block: () -> Void)] in
            guard remaining > 0 else { return [] }
            remaining -= 1
            guard remaining == 0 else { return [] }
            defer { observers = [] }
            return observers
        }
        for observer in toNotify { observer.queue.async(execute: observer.block) }
    }

    /// How many `countDown()` calls are still needed.
    public var count: Int { queue.sync { remaining } }

    /// Blocks until the latch is open or the timeout passes.
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult {
        while remaining > 0 {
            if DispatchTime.now() >= timeout { return .timedOut }
            usleep(1_000)
        }
        return .success
    }

    /// Runs `execute` on `queue` once the latch is open (right away if it already is).
    public func notify(queue: DispatchQueue, execute: @escaping () -> Void) {
        let alreadyOpen = self.queue.sync { () -> Bool in
            if remaining == 0 { return true }
            observers.append((queue, execute))
            return false
        }
        if alreadyOpen { queue.async(execute: execute) }
    }
}

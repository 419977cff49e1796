// near-miss hang: At zero the semaphore is signalled once for each thread waiting at that moment, but a thread that calls `wait` after the latch opened finds no signal left and times out — a latch must let later waiters through too.
import Dispatch

/// A one-shot gate that opens when `count` calls to `countDown()` have been made.
public final class CountDownLatch {
    private let queue = DispatchQueue(label: "workbook.countdownlatch")
    private let opened = DispatchSemaphore(value: 0)
    private var remaining: Int
    private var waiting = 0
    private var observers: [(queue: DispatchQueue, block: () -> Void)] = []

    public init(count: Int) {
        remaining = max(count, 0)
    }

    /// Lowers the count by one; opens the latch when it reaches zero.
    public func countDown() {
        let toNotify = queue.sync { () -> [(queue: DispatchQueue, block: () -> Void)] in
            guard remaining > 0 else { return [] }
            remaining -= 1
            guard remaining == 0 else { return [] }
            for _ in 0..<waiting { opened.signal() }   // wake everyone who is waiting
            defer { observers = [] }
            return observers
        }
        for observer in toNotify { observer.queue.async(execute: observer.block) }
    }

    /// How many `countDown()` calls are still needed.
    public var count: Int { queue.sync { remaining } }

    /// Blocks until the latch is open or the timeout passes.
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult {
        queue.sync { waiting += 1 }
        let result = opened.wait(timeout: timeout)
        queue.sync { waiting -= 1 }
        return result
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

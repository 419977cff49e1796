// near-miss crash: The `countDown()` that opens the latch delivers the notify blocks with `queue.sync`, so it blocks until each block's queue is free and has run it — a busy queue stalls the caller of `countDown()`, and a `countDown()` called from a block on the very queue it was handed does `sync` onto the queue it is running on, and libdispatch stops the program.
import Dispatch

/// A one-shot gate that opens when `count` calls to `countDown()` have been made.
public final class CountDownLatch {
    private let queue = DispatchQueue(label: "workbook.countdownlatch")
    private let gate = DispatchGroup()
    private var remaining: Int
    private var observers: [(queue: DispatchQueue, block: () -> Void)] = []

    public init(count: Int) {
        remaining = max(count, 0)
        if remaining > 0 { gate.enter() }
    }

    /// Lowers the count by one; opens the latch when it reaches zero. Does nothing at zero.
    public func countDown() {
        let toNotify = queue.sync { () -> [(queue: DispatchQueue, block: () -> Void)]? in
            guard remaining > 0 else { return nil }
            remaining -= 1
            guard remaining == 0 else { return nil }
            defer { observers = [] }
            return observers
        }
        guard let toNotify else { return }
        gate.leave()
        // Deliver them now, so they have all run by the time countDown() returns.
        for observer in toNotify { observer.queue.sync(execute: observer.block) }
    }

    /// How many `countDown()` calls are still needed.
    public var count: Int { queue.sync { remaining } }

    /// Blocks until the latch is open or the timeout passes.
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult {
        if queue.sync(execute: { remaining == 0 }) { return .success }
        let opened = DispatchSemaphore(value: 0)
        gate.notify(queue: queue) { opened.signal() }
        return opened.wait(timeout: timeout)
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

// near-miss wrong: On a latch that is already open, `notify` runs a block meant for the main queue right away, inside the call, instead of submitting it: from any thread but the main queue's, it then runs on a queue it was not given; from a block on the main queue, it runs before the code after `notify` — which the contract rules out for every queue.
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
        for observer in toNotify { observer.queue.async(execute: observer.block) }
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
        guard alreadyOpen else { return }
        // The main queue is where the UI is: on an open latch, don't make it wait for another turn.
        if queue.label == DispatchQueue.main.label { execute() } else { queue.async(execute: execute) }
    }
}

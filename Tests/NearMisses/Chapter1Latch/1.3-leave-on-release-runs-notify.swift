// near-miss wrong: A latch released before it opens balances its group with `leave()`, but nothing tells the notify blocks that this wakes that the latch never opened, so they run the caller's code as if the count had reached zero.
import Dispatch

/// A one-shot gate that opens when `count` calls to `countDown()` have been made.
///
/// Built on a `DispatchGroup` that is entered once and left when the count reaches zero. Unlike a
/// semaphore, whose every `signal()` lets exactly one `wait()` through, an empty group runs *every*
/// `notify` block, registered before or after — which is what a latch promises.
public final class CountDownLatch {
    private let queue = DispatchQueue(label: "workbook.countdownlatch")
    private let gate = DispatchGroup()
    private var remaining: Int

    public init(count: Int) {
        remaining = max(count, 0)
        if remaining > 0 { gate.enter() }
    }

    deinit {
        if queue.sync(execute: { remaining > 0 }) { gate.leave() }
    }

    /// Lowers the count by one; opens the latch when it reaches zero. Does nothing at zero.
    public func countDown() {
        let opens = queue.sync { () -> Bool in
            guard remaining > 0 else { return false }
            remaining -= 1
            return remaining == 0
        }
        // Exactly one caller sees the count reach zero, so `leave()` balances `enter()` once.
        if opens { gate.leave() }
    }

    /// How many `countDown()` calls are still needed.
    public var count: Int { queue.sync { remaining } }

    /// Blocks until the latch is open or the timeout passes.
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult {
        // `gate.wait` must not be called from several threads at once (dispatch/group.h leaves that
        // undefined), so each waiter gets a semaphore of its own that the open gate signals.
        // The signal goes through our own queue: a global queue's few threads may all be busy.
        if queue.sync(execute: { remaining == 0 }) { return .success }
        let opened = DispatchSemaphore(value: 0)
        gate.notify(queue: queue) { opened.signal() }
        return opened.wait(timeout: timeout)
    }

    /// Runs `execute` on `queue` once the latch is open (right away if it already is).
    public func notify(queue: DispatchQueue, execute: @escaping () -> Void) {
        gate.notify(queue: queue, execute: execute)
    }
}

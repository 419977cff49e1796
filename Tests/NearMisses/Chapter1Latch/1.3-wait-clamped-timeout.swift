// near-miss wrong: `wait` never blocks longer than 1 s at a time "so that nobody is stuck", and reports `.success` when that second ran out before the caller's own deadline: a wait with a deadline far away returns `.success` after 1 s on a latch that is still closed.
import Dispatch

/// A one-shot gate that opens when `count` calls to `countDown()` have been made.
public final class CountDownLatch {
    private let queue = DispatchQueue(label: "workbook.countdownlatch")
    private let gate = DispatchGroup()
    private var remaining: Int

    /// Set by `deinit` of a latch that never opened, before the `leave()` that wakes the blocks.
    private final class Abandoned: @unchecked Sendable {
        var isSet = false
    }
    private let abandoned = Abandoned()

    public init(count: Int) {
        remaining = max(count, 0)
        if remaining > 0 { gate.enter() }
    }

    deinit {
        let stillClosed = queue.sync { remaining > 0 }
        if stillClosed {
            abandoned.isSet = true
            gate.leave()
        }
    }

    /// Lowers the count by one; opens the latch when it reaches zero. Does nothing at zero.
    public func countDown() {
        let opens = queue.sync { () -> Bool in
            guard remaining > 0 else { return false }
            remaining -= 1
            return remaining == 0
        }
        if opens { gate.leave() }
    }

    /// How many `countDown()` calls are still needed.
    public var count: Int { queue.sync { remaining } }

    /// Blocks until the latch is open or the timeout passes.
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult {
        if queue.sync(execute: { remaining == 0 }) { return .success }
        let opened = DispatchSemaphore(value: 0)
        gate.notify(queue: queue) { opened.signal() }
        let oneSecond = DispatchTime.now() + 1
        if opened.wait(timeout: min(timeout, oneSecond)) == .timedOut && DispatchTime.now() >= timeout {
            return .timedOut
        }
        return .success
    }

    /// Runs `execute` on `queue` once the latch is open (right away if it already is).
    public func notify(queue: DispatchQueue, execute: @escaping () -> Void) {
        gate.notify(queue: queue) { [abandoned] in
            if !abandoned.isSet { execute() }
        }
    }
}

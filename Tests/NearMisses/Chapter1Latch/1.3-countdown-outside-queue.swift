// near-miss race: `countDown()` lowers `remaining` without going through the queue, while `count` still reads it with `queue.sync { remaining }` — two threads counting down write it at the same time, with nothing ordering the two writes.
import Dispatch

/// A one-shot gate that opens when `count` calls to `countDown()` have been made.
public final class CountDownLatch {
    private final class Abandoned: @unchecked Sendable {
        var isSet = false
    }

    private let queue = DispatchQueue(label: "workbook.countdownlatch")
    private let gate = DispatchGroup()
    private let abandoned = Abandoned()
    private var remaining: Int

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
        guard remaining > 0 else { return }
        remaining -= 1
        if remaining == 0 { gate.leave() }
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
        gate.notify(queue: queue) { [abandoned] in
            if !abandoned.isSet { execute() }
        }
    }
}

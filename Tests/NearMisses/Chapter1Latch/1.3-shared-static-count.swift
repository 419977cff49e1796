// near-miss hang: The count is a `static` property (guarded by a `static` queue), shared by every latch instead of kept by each: making a latch resets the count of all the others, so a latch opens on another latch's countDown() calls, or never.
import Dispatch

/// A one-shot gate that opens when `count` calls to `countDown()` have been made.
public final class CountDownLatch {
    nonisolated(unsafe) private static var remaining = 0
    private static let queue = DispatchQueue(label: "workbook.countdownlatch")
    private let gate = DispatchGroup()
    private let abandoned = Abandoned()

    /// Set by `deinit` of a latch that never opened, before the `leave()` that wakes the blocks.
    private final class Abandoned: @unchecked Sendable {
        var isSet = false
    }

    public init(count: Int) {
        Self.queue.sync { Self.remaining = max(count, 0) }
        if count > 0 { gate.enter() }
    }

    deinit {
        let stillClosed = Self.queue.sync { Self.remaining > 0 }
        if stillClosed {
            abandoned.isSet = true
            gate.leave()
        }
    }

    /// Lowers the count by one; opens the latch when it reaches zero. Does nothing at zero.
    public func countDown() {
        let opens = Self.queue.sync { () -> Bool in
            guard Self.remaining > 0 else { return false }
            Self.remaining -= 1
            return Self.remaining == 0
        }
        if opens { gate.leave() }
    }

    /// How many `countDown()` calls are still needed.
    public var count: Int { Self.queue.sync { Self.remaining } }

    /// Blocks until the latch is open or the timeout passes.
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult {
        let opened = DispatchSemaphore(value: 0)
        gate.notify(queue: Self.queue) { opened.signal() }
        return opened.wait(timeout: timeout)
    }

    /// Runs `execute` on `queue` once the latch is open (right away if it already is).
    public func notify(queue: DispatchQueue, execute: @escaping () -> Void) {
        gate.notify(queue: queue) { [abandoned] in
            if !abandoned.isSet { execute() }
        }
    }
}

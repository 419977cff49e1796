import Dispatch

/// Keeps queues busy until ``release()``, or at the latest `seconds` later: a block of the test's,
/// sent to each queue with `async`, that waits.
///
/// A block sent to a held serial queue afterwards runs only after the release, in order. That makes
/// "the queue has not got round to it yet" happen in every run, not once in a while, and a block that
/// runs while its queue is held ran somewhere else. The wait ends on its own, so code that blocks on a
/// held queue is slowed down, never hung. Chapters 1, 2 and 5 hold the queues they hand the code under
/// test; chapter 4 holds an object's own queue from a thread instead (``occupy(_:until:seconds:)``).
package final class QueueHold: Sendable {
    private let holding = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let count: Int

    package init(_ queues: [DispatchQueue], seconds: Double) {
        count = queues.count
        for queue in queues {
            queue.async { [holding, gate] in
                holding.signal()
                _ = gate.wait(timeout: .now() + seconds)
            }
        }
    }

    package convenience init(_ target: TestQueue, seconds: Double) {
        self.init([target.queue], seconds: seconds)
    }

    /// Whether every held queue has started the test's block within `seconds`: until it has, a queue
    /// still busy with earlier work is not held by the test yet. Ask once.
    package func isHolding(within seconds: Double = 2) -> Bool {
        let deadline = DispatchTime.now() + seconds
        return (0..<count).allSatisfy { _ in holding.wait(timeout: deadline) == .success }
    }

    /// Lets every held queue go on.
    package func release() {
        for _ in 0..<count { gate.signal() }
    }
}

import Dispatch

/// A serial queue that can tell whether the current code runs on it.
///
/// Linux test processes never drain `DispatchQueue.main`, so the exercises take the queue to
/// deliver on as a parameter; tests pass one of these and check where completions ran.
package final class TestQueue: Sendable {
    package let queue: DispatchQueue
    private let key = DispatchSpecificKey<Int>()

    package init(label: String = "workbook.test-queue") {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: 1)
    }

    /// `true` when called from a block running on ``queue``.
    package var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }
}

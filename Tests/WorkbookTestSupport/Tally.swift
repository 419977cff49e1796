import Foundation

/// A thread-safe record of what happened, for assertions after the fact.
///
/// Uses `NSLock`, which the Thread Sanitizer understands on every platform, so the test's own
/// bookkeeping never shows up in a report about the learner's code.
package final class Tally<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []

    package init() {}

    package func append(_ item: Element) {
        lock.lock(); defer { lock.unlock() }
        items.append(item)
    }

    package var all: [Element] {
        lock.lock(); defer { lock.unlock() }
        return items
    }

    package var count: Int { all.count }
}

/// Counts how many callers are inside a region at once, and the most there ever were.
package final class ConcurrencyMeter: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var peak = 0

    package init() {}

    package func enter() {
        lock.lock(); defer { lock.unlock() }
        current += 1
        peak = max(peak, current)
    }

    package func leave() {
        lock.lock(); defer { lock.unlock() }
        current -= 1
    }

    /// The largest number of callers that were inside at the same time.
    package var maximum: Int {
        lock.lock(); defer { lock.unlock() }
        return peak
    }
}

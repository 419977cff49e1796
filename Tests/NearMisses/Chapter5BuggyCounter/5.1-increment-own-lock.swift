// near-miss race: `increment()` adds one under an `NSLock` of its own while `value` reads through the queue (`queue.sync { hits }`): the lock orders the writes among themselves, but nothing orders a write with a read on the queue, so `value` can read `hits` while it is being changed.
import Dispatch
import Foundation

// Exercise 5.1 — a hit counter many threads bump at once.
//
// Contract (the tests in Tests/Chapter5BuggyCounterTests/Exercise5_1Tests.swift check each point):
// - A new counter's `value` is 0.
// - `increment()` adds exactly one hit, from any number of threads at once: 4 threads × 1 000
//   calls leave `value` at 4 000. It is synchronous: its hit is counted by the time it returns.
// - `value` may be read on any thread while others call `increment()`; on one thread, successive
//   reads never go down.

/// Counts hits from any number of threads.
public final class HitCounter {
    // Every read and write of `hits` happens on this serial queue, one at a time.
    private let queue = DispatchQueue(label: "workbook.hit-counter")
    private var hits = 0
    private let lock = NSLock()

    public init() {}

    /// Adds one hit.
    public func increment() {
        lock.withLock { hits += 1 }
    }

    /// The number of hits so far.
    public var value: Int { queue.sync { hits } }
}

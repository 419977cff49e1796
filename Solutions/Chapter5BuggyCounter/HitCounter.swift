import Dispatch

// Exercise 5.1 — a hit counter many threads bump at once.
//
// Contract (the tests in Tests/Chapter5BuggyCounterTests/Exercise5_1Tests.swift check each point):
// - A new counter's `value` is 0.
// - `increment()` adds exactly one hit, from any number of threads at once: 4 threads × 1 000
//   calls leave `value` at 4 000. It is synchronous: its hit is counted by the time it returns.
// - `value` may be read on any thread while others call `increment()`; on one thread, successive
//   reads never go down.
// - Each counter keeps its own count, and may be released as soon as its last call has returned.

/// Counts hits from any number of threads.
public final class HitCounter {
    // Every read and write of `hits` happens on this serial queue, one at a time.
    private let queue = DispatchQueue(label: "workbook.hit-counter")
    private var hits = 0

    public init() {}

    /// Adds one hit.
    public func increment() {
        queue.sync { hits += 1 }
    }

    /// The number of hits so far.
    public var value: Int { queue.sync { hits } }
}

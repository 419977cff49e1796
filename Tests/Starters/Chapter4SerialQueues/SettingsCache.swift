import Dispatch

// Exercise 4.3 — a settings cache that many threads read and a few write.
//
// Contract:
// - `value(forKey:)` and `setValue(_:forKey:)` may be called from any thread, at any time.
// - `value(forKey:)` returns the value stored for the key, or `nil` if it was never set or was
//   removed. A read that starts after `setValue` returned sees that write (or a later one), on
//   any thread; `setValue` may return before its write has run. `setValue(nil, forKey:)` removes.
// - Reads run side by side: a read does not wait for another read still running on `queue` — so
//   not a serial queue, and not reads submitted as barriers.
// - A write runs alone — no read and no other write at the same time; removals too. A barrier
//   does that only on a concurrent queue you created (a global queue ignores it), given as
//   `queue.async(flags: .barrier)` or `queue.sync(flags: .barrier)`.
// - Reads and writes may come from GCD work items. A write must still run when every worker
//   thread of libdispatch's pool is parked in a read waiting behind it (the pool grows slowly:
//   on Linux about one thread a second, measured with Swift 6.3.1 on x86-64).
// - No block on `queue` may `sync` onto `queue`: inside a barrier libdispatch traps, and a
//   barrier `sync` inside a plain block of `queue` waits forever.
//
// The writes below go through the same queue as the reads. Is that enough on a concurrent queue?

/// A thread-safe dictionary of settings, read often and written rarely.
public final class SettingsCache {
    private let queue = DispatchQueue(label: "workbook.settings-cache", attributes: .concurrent)
    private var storage: [String: String] = [:]

    public init() {}

    /// The value stored for `key`, or `nil`.
    public func value(forKey key: String) -> String? {
        queue.sync { storage[key] }
    }

    /// Stores `value` for `key`; `nil` removes the key.
    public func setValue(_ value: String?, forKey key: String) {
        queue.sync { storage[key] = value }
    }
}

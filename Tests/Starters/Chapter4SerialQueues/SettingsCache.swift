import Dispatch

// Exercise 4.3 — a settings cache that many threads read and a few write.
//
// Contract:
// - `value(forKey:)` and `setValue(_:forKey:)` may be called from any thread, at any time.
// - `value(forKey:)` returns the value stored for the key, or `nil` if it was never set or was
//   removed. A read that starts after `setValue` returned sees that write (or a later one), on
//   any thread; `setValue` may return before its write has run. `setValue(nil, forKey:)` removes.
// - Reads run side by side: a read does not wait for another read that is still running.
// - A write runs alone — no read and no other write at the same time; removals too.
// - A write must not starve. Reads and writes may come from GCD work items: when forty reads sent
//   from work items wait behind a write, the write and all forty reads are done within 2 s of the
//   queue becoming free.
// - Nothing traps or hangs.
//
// Stuck? `swift run workbook hint 4.3` asks a question about the failure, one step at a time.

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

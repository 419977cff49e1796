import Dispatch

// Exercise 4.3 — a settings cache that many threads read and a few write.
//
// Reads are frequent, so they may run side by side: the cache uses a *concurrent* queue and reads
// with `sync`. A write, though, must run alone — no read and no other write at the same time.
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

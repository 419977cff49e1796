// near-miss wrong: a serial queue instead of a concurrent one — safe, and TSan-clean, but secretly serial: every read waits for every other read, which is what this cache was meant to avoid.
import Dispatch

/// A thread-safe dictionary of settings, read often and written rarely.
public final class SettingsCache {
    private let queue = DispatchQueue(label: "workbook.settings-cache")   // serial: simpler
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

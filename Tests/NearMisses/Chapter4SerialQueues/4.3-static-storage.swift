// near-miss wrong: the settings live in a `static` dictionary, "settings are app-wide" — each cache still reads and writes them through its own queue, so one cache is TSan-clean, but every cache shares one set of values: a value set on one cache is read from another.
import Dispatch

/// A thread-safe dictionary of settings, read often and written rarely.
public final class SettingsCache {
    private let queue = DispatchQueue(label: "workbook.settings-cache", attributes: .concurrent)
    private static var storage: [String: String] = [:]

    public init() {}

    /// The value stored for `key`, or `nil`.
    public func value(forKey key: String) -> String? {
        queue.sync { SettingsCache.storage[key] }
    }

    /// Stores `value` for `key`; `nil` removes the key.
    public func setValue(_ value: String?, forKey key: String) {
        queue.sync(flags: .barrier) { SettingsCache.storage[key] = value }
    }
}

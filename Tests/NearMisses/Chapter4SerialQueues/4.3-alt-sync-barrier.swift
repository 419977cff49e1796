// alternative: writes as `queue.sync(flags: .barrier)` — the reference design: the write runs on the caller's own thread, so it needs no free worker of the pool; reads still run side by side.
import Dispatch

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
        queue.sync(flags: .barrier) { storage[key] = value }
    }
}

// near-miss race: reads skip the queue because "reads run side by side anyway" — a barrier excludes only blocks of its own queue, so a read made outside it races with the write.
import Dispatch

/// A thread-safe dictionary of settings, read often and written rarely.
public final class SettingsCache {
    private let queue = DispatchQueue(label: "workbook.settings-cache", attributes: .concurrent)
    private var storage: [String: String] = [:]

    public init() {}

    /// The value stored for `key`, or `nil`.
    public func value(forKey key: String) -> String? {
        storage[key]
    }

    /// Stores `value` for `key`; `nil` removes the key.
    public func setValue(_ value: String?, forKey key: String) {
        queue.async(flags: .barrier) { self.storage[key] = value }
    }
}

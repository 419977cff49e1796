// near-miss wrong: reads are submitted as barriers too — nothing races, but a barrier runs alone, so every read waits for every other read and the concurrent queue is serial in disguise.
import Dispatch

/// A thread-safe dictionary of settings, read often and written rarely.
public final class SettingsCache {
    private let queue = DispatchQueue(label: "workbook.settings-cache", attributes: .concurrent)
    private var storage: [String: String] = [:]

    public init() {}

    /// The value stored for `key`, or `nil`.
    public func value(forKey key: String) -> String? {
        queue.sync(flags: .barrier) { storage[key] }        // to be safe
    }

    /// Stores `value` for `key`; `nil` removes the key.
    public func setValue(_ value: String?, forKey key: String) {
        queue.sync(flags: .barrier) { storage[key] = value }
    }
}

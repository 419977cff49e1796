// near-miss race: removing a key (`setValue(nil, forKey:)`) changes `storage` outside the queue — a removal is a write too, and races with the reads on the queue.
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
        guard let value else {
            storage.removeValue(forKey: key)
            return
        }
        queue.sync(flags: .barrier) { storage[key] = value }
    }
}

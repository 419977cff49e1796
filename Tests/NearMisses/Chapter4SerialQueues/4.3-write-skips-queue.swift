// near-miss race: `setValue` stores into `storage` straight from the caller's thread, while `value(forKey:)` still reads with `queue.sync { storage[key] }` — two threads that write at once change the dictionary at the same time, with nothing ordering the two writes.
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
        storage[key] = value
    }
}

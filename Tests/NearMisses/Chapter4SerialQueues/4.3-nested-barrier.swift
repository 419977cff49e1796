// near-miss crash: the barrier block calls a helper that does its own `queue.sync(flags: .barrier)` — a barrier holds the whole queue, so that `sync` waits for the block it is called from, and libdispatch traps.
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
        queue.async(flags: .barrier) {
            if let value {
                self.storage[key] = value
            } else {
                self.removeValue(forKey: key)
            }
        }
    }

    /// Removes `key`, alone on the queue.
    func removeValue(forKey key: String) {
        queue.sync(flags: .barrier) { _ = storage.removeValue(forKey: key) }
    }
}

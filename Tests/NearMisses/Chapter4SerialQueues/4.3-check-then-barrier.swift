// near-miss hang: the write first checks the old value in a plain `queue.sync`, then writes with `sync(flags: .barrier)` from inside that block — the barrier waits for every running block of the queue, including the one that is waiting for it, forever.
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
        queue.sync {
            guard storage[key] != value else { return }    // unchanged: no need for a barrier
            queue.sync(flags: .barrier) { storage[key] = value }
        }
    }
}

// near-miss race: the write is a `sync` barrier on a global queue — global queues ignore `.barrier`, and the cache's reads run on its own queue anyway, so writes race with reads and with each other.
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
        DispatchQueue.global().sync(flags: .barrier) { storage[key] = value }
    }
}

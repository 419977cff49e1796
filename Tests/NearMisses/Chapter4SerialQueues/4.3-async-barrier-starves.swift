// near-miss hang: writes as `queue.async(flags: .barrier)` — the textbook reader-writer pattern, correct and TSan-clean, but its trade-off loses here: the barrier needs a free worker of the constrained pool this queue runs on, readers sent from GCD work items park every such worker in `sync` behind it, and on Linux that pool grows by one thread per one-second monitor tick (libdispatch src/event/workqueue.c), so 40 waiting reads are still waiting 2 s later.
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

    /// Stores `value` for `key`; `nil` removes the key. Returns before the write has run.
    public func setValue(_ value: String?, forKey key: String) {
        queue.async(flags: .barrier) { self.storage[key] = value }
    }
}

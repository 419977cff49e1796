// near-miss hang: writes as `queue.async(flags: .barrier)` — correct and TSan-clean, but the barrier needs a worker thread of libdispatch's pool to run on; readers sent from GCD work items park every worker in `sync` behind it, and on Linux the pool grows by about one thread a second (measured, Swift 6.3.1, x86-64), so 40 waiting reads are still waiting 2 s later.
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

// near-miss wrong: the write is a `sync` barrier on a global queue — a global queue ignores `.barrier` and gives the cache no exclusion (and a `sync` barrier there waits for the global pool, which reads sent from GCD work items can hold). The Thread Sanitizer takes the flag at its word and reports the writes only in a run where two blocks really overlap, so what a run shows is luck: the grader fails the line itself.
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

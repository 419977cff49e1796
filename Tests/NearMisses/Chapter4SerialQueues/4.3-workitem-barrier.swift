// near-miss wrong: writes sent as a `DispatchWorkItem(flags: .barrier)` with `sync` — a barrier without the Thread Sanitizer, but under it the flag is lost on its way to libdispatch (TSan's interceptor resubmits the work item's block without it), so the grader cannot judge this form and says so at its line.
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
        let write = DispatchWorkItem(flags: .barrier) { self.storage[key] = value }
        queue.sync(execute: write)
    }
}

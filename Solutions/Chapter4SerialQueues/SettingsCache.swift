import Dispatch

/// A thread-safe dictionary of settings, read often and written rarely.
///
/// A reader-writer design on a concurrent queue: reads are plain blocks and may run side by side;
/// a write is a *barrier* block, which waits for the reads before it and runs alone.
public final class SettingsCache {
    private let queue = DispatchQueue(label: "workbook.settings-cache", attributes: .concurrent)
    private var storage: [String: String] = [:]

    public init() {}

    /// The value stored for `key`, or `nil`.
    public func value(forKey key: String) -> String? {
        queue.sync { storage[key] }
    }

    /// Stores `value` for `key`; `nil` removes the key.
    ///
    /// Returns at once; a later read, from any thread, still sees the value, because it is
    /// queued behind this barrier.
    public func setValue(_ value: String?, forKey key: String) {
        queue.async(flags: .barrier) {
            self.storage[key] = value
        }
    }
}

// near-miss wrong: 4.3-serial-queue with its queue named `isolation`: safe and TSan-clean but serial, so every read waits for every other read. The test that holds a read on the cache's queue finds the queue by its type, whatever its name — before, a renamed queue made that clause unchecked, and this passed.
import Dispatch

/// A thread-safe dictionary of settings, read often and written rarely.
public final class SettingsCache {
    private let isolation = DispatchQueue(label: "workbook.settings-cache")   // serial: simpler
    private var storage: [String: String] = [:]

    public init() {}

    /// The value stored for `key`, or `nil`.
    public func value(forKey key: String) -> String? {
        isolation.sync { storage[key] }
    }

    /// Stores `value` for `key`; `nil` removes the key.
    public func setValue(_ value: String?, forKey key: String) {
        isolation.sync { storage[key] = value }
    }
}

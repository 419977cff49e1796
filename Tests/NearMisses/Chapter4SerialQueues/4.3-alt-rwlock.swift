// alternative: a POSIX reader-writer lock instead of a queue — many readers hold it at once, a writer holds it alone; the Thread Sanitizer understands pthread_rwlock.
import Dispatch
import Foundation

/// A thread-safe dictionary of settings, read often and written rarely.
public final class SettingsCache {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t> = {
        let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
        return lock
    }()
    private var storage: [String: String] = [:]

    public init() {}

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// The value stored for `key`, or `nil`.
    public func value(forKey key: String) -> String? {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return storage[key]
    }

    /// Stores `value` for `key`; `nil` removes the key.
    public func setValue(_ value: String?, forKey key: String) {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        storage[key] = value
    }
}

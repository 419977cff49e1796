import Foundation
import WorkbookCore

/// A value shared between threads behind a lock, in a class so that closures running on other
/// threads can hold it (the role of SwiftPM's `ThreadSafeBox`).
///
/// An `NSLock`, not `Mutex`: the engine's own tests run in the TSan-linked test executable, and TSan
/// sees `pthread_mutex` but only part of `Mutex` on Linux (Exercises/MEASUREMENTS.md, M5) — a `Mutex`
/// here drew a false "Swift access race" report in the unit tests.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    package init(_ value: Value) { stored = value }

    /// The value now.
    package var value: Value { lock.withLock { stored } }

    /// Replaces the value.
    func set(_ value: Value) { lock.withLock { stored = value } }

    /// Reads and changes the value in one step.
    @discardableResult
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&stored) }
    }
}

/// What a lookup found, remembered per key: the first call for a key runs `find` (under the lock, so
/// two threads never look the same thing up twice), every later one returns what it found — `nil`
/// too, for an optional `Value`.
package final class Remembered<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let found = Locked<[Key: Value]>([:])

    package init() {}

    package func value(for key: Key, _ find: () -> Value) -> Value {
        found.withLock { found in
            if let known = found[key] { return known }
            let value = find()
            found[key] = value
            return value
        }
    }
}

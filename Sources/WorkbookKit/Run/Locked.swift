import Synchronization

/// A value shared between threads behind a `Mutex`, in a class so that closures running on other
/// threads can hold it (the role of SwiftPM's `ThreadSafeBox`).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) { mutex = Mutex(value) }

    /// The value now.
    var value: Value { mutex.withLock { $0 } }

    /// Replaces the value.
    func set(_ value: Value) { mutex.withLock { $0 = value } }

    /// Reads and changes the value in one step.
    @discardableResult
    func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { value in try body(&value) }
    }
}

import Dispatch
import Synchronization
import Testing

/// A one-shot event a test can wait for, with a bound.
///
/// ```swift
/// let finished = Signal()
/// performAll(times: 3, work: work, queue: queue) { finished.fire() }
/// finished.wait("completion was not called within 2 s of the last callback")
/// ```
package final class Signal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    package init() {}

    /// Marks the event as happened. Call it once per expected event.
    package func fire() { semaphore.signal() }

    /// Waits up to `seconds` for one ``fire()``; on timeout records a hang-kind failure that
    /// says `what` did not happen, and returns `false`.
    @discardableResult
    package func wait(
        _ what: String, seconds: Double = 2,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        guard AfterATimeOut.wait(upTo: seconds, until: happens(within:)) != nil else { return true }
        recordTimeout(what, sourceLocation: sourceLocation)
        return false
    }

    /// Waits up to `seconds` and tells whether the event happened, recording nothing.
    /// Use it to check that something did *not* happen (yet).
    package func happens(within seconds: Double) -> Bool {
        semaphore.wait(timeout: .now() + seconds) == .success
    }
}

/// A Boolean that any thread may set and read: a test's own note ("a transform is running now").
/// Relaxed, so it orders nothing: it adds no happens-before edge that could hide a race of the code
/// under test from the Thread Sanitizer.
package final class Flag: Sendable {
    private let flag = Atomic<Bool>(false)

    package init() {}

    package var value: Bool { flag.load(ordering: .relaxed) }
    package func set(_ value: Bool) { flag.store(value, ordering: .relaxed) }
}

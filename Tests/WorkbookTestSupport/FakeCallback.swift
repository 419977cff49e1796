import Dispatch
import Foundation
import Testing

/// How a fake asynchronous API calls its completion handler back.
package enum CallbackStyle: String, Sendable, CaseIterable, CustomTestStringConvertible {
    /// Before the call returns, on the caller's thread.
    case synchronous
    /// Later, from another thread.
    case asynchronous

    package var testDescription: String { rawValue }
}

/// Callbacks held back by a test and released all at once from several threads.
///
/// Give ``work`` to code that expects `(@escaping () -> Void) -> Void`; every call parks its
/// callback here. ``releaseAll(threads:)`` then calls the parked callbacks from `threads` threads
/// behind a start gate, so that learner code touched by the callbacks really runs in parallel.
package final class HeldCallbacks: @unchecked Sendable {
    private let lock = NSLock()
    private var parked: [() -> Void] = []

    package init() {}

    /// A fake piece of work that finishes only when the test releases it.
    package var work: (@escaping () -> Void) -> Void {
        { [self] done in
            lock.lock(); defer { lock.unlock() }
            parked.append(done)
        }
    }

    /// How many callbacks are parked.
    package var count: Int {
        lock.lock(); defer { lock.unlock() }
        return parked.count
    }

    /// Calls every parked callback once, spread over `threads` gated threads.
    @discardableResult
    package func releaseAll(threads: Int = 4, _ what: String) -> Bool {
        lock.lock()
        let callbacks = Unchecked(parked)
        parked.removeAll()
        lock.unlock()
        let perThread = (callbacks.value.count + threads - 1) / threads
        return runConcurrently(threads: threads, iterations: perThread, what) { thread, iteration in
            let index = thread * perThread + iteration
            if index < callbacks.value.count { callbacks.value[index]() }
        }
    }
}

/// A fake piece of work that calls back in the given style.
package func fakeWork(_ style: CallbackStyle) -> (@escaping () -> Void) -> Void {
    switch style {
    case .synchronous:
        return { done in done() }
    case .asynchronous:
        return { done in
            let callback = Unchecked(done)
            startThread { callback.value() }
        }
    }
}

import Dispatch
import Foundation
import Testing

/// Calls learner code on a thread the test owns and waits for it to return, at most `seconds`.
///
/// A call made straight from a test can block that test forever (a `wait()` nobody signals, a
/// `group.wait()` inside the function under test) — and with it the whole `swift test` run, since
/// Swift Testing's time limits do not stop a blocked test. Made through `bounded`, the same call
/// ends as a hang-kind failure of this one test, and the other tests still run:
///
/// ```swift
/// guard let latch = bounded("CountDownLatch(count: 0)") { CountDownLatch(count: 0) } else { return }
/// ```
///
/// Returns the body's result, or `nil` after recording a failure that names `what`. A call that never
/// returns leaves its thread behind; the rest of the run goes on without it.
///
/// Once the test's suite has timed out, the wait is cut short (see ``AfterATimeOut``).
@discardableResult
package func bounded<Result>(
    _ what: String, seconds: Double = 2,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () -> Result
) -> Result? {
    let box = Tally<Unchecked<Result>>()
    let returned = Signal()
    startThread {
        box.append(Unchecked(body()))
        returned.fire()
    }
    if let waited = AfterATimeOut.wait(upTo: seconds, until: returned.happens(within:)) {
        recordTimeout(
            "\(what) did not return within \(formatSeconds(waited)). Something in it blocks its caller: "
                + "a `wait()` that nothing signals in time, a `sync` onto a queue that is busy, or a loop that never ends.",
            sourceLocation: sourceLocation)
        return nil
    }
    return box.all.first?.value
}

/// For a child process: calls `body` on a new thread and waits for it at most `seconds`; `nil` if it
/// did not return in time. Records nothing — a child says what went wrong by the sentence it returns.
package func within<Result>(_ seconds: Double, _ body: @escaping @Sendable () -> Result) -> Result? {
    let box = Tally<Unchecked<Result>>()
    let returned = Signal()
    startThread {
        box.append(Unchecked(body()))
        returned.fire()
    }
    guard returned.happens(within: seconds) else { return nil }
    return box.all.first?.value
}

/// ``within(_:_:)`` for a call that returns nothing: whether it returned within `seconds`.
package func finishes(within seconds: Double = 2, _ body: @escaping @Sendable () -> Void) -> Bool {
    within(seconds, body) != nil
}

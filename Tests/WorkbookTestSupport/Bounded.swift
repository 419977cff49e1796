import Dispatch
import Foundation
import Synchronization
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
/// With `entry`, a call into a function that has already blocked a caller in this process waits
/// only ``LearnerEntry/boundAfterABlock`` (see ``LearnerEntry``).
@discardableResult
public func bounded<Result>(
    _ what: String, seconds: Double = 2, entry: LearnerEntry? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () -> Result
) -> Result? {
    let box = Tally<Unchecked<Result>>()
    let returned = Signal()
    let blockedBefore = entry?.hasBlocked == true
    let limit = blockedBefore ? min(seconds, LearnerEntry.boundAfterABlock) : seconds
    startThread {
        box.append(Unchecked(body()))
        returned.fire()
    }
    guard returned.happens(within: limit) else {
        entry?.markBlocked()
        var sentence = "\(what) did not return within \(formatSeconds(limit)). Something in it blocks its caller: "
            + "a `wait()` that nothing signals in time, a `sync` onto a queue that is busy, or a loop that never ends."
        if blockedBefore, let entry { sentence += " " + entry.waitedLess }
        recordTimeout(sentence, sourceLocation: sourceLocation)
        return nil
    }
    return box.all.first?.value
}

/// A function of the learner's that tests call through
/// ``bounded(_:seconds:entry:sourceLocation:_:)``, remembered once a call of it has blocked its
/// caller past the bound, for the rest of the test process.
///
/// By then its exercise has failed, and each later call would most likely block its own test for
/// the whole bound too. Those waits add up: under plain `swift test` the synchronous tests of a run
/// share a thread or two of Swift's cooperative pool, so a function that blocks every caller for
/// 2 s stalls a suite of ten tests for 20 s. Later calls therefore wait only ``boundAfterABlock``,
/// and their failure says why. A correct answer never blocks, so it never meets the shorter bound.
///
/// ```swift
/// static let runAllEntry = LearnerEntry("runAll")
/// bounded("runAll(…)", entry: runAllEntry) { runAll(functions, queue: queue, completion: done) }
/// ```
public final class LearnerEntry: Sendable {
    /// How long a call waits once another call of the same function has blocked its caller.
    public static let boundAfterABlock = 0.25

    /// The function's name, as the learner wrote it (`runAll`).
    public let name: String
    // Relaxed: the flag must give the Thread Sanitizer no ordering between the tests that read it.
    private let blocked = Atomic<Bool>(false)

    public init(_ name: String) { self.name = name }

    /// Whether a call of this function has blocked its caller past its bound in this process.
    public var hasBlocked: Bool { blocked.load(ordering: .relaxed) }

    func markBlocked() { blocked.store(true, ordering: .relaxed) }

    /// What happened before, for a test that waited less than its usual bound, or not at all.
    private var earlierBlock: String {
        "an earlier call of `\(name)` in this run never returned at all (its test's \"Timed out\" failure says more)"
    }

    /// Why a test waited less than its usual bound.
    var waitedLess: String {
        "It waited no longer because \(earlierBlock)."
    }

    /// For a test that would only start a child process to call this function again: after a
    /// block, records a time-out failure that says so and returns `true`, and the test ends
    /// without the child.
    public func blockedEarlier(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard hasBlocked else { return false }
        recordTimeout("\(what) was not tried: \(earlierBlock).", sourceLocation: sourceLocation)
        return true
    }
}

/// For a child process: calls `body` on a new thread and waits for it at most `seconds`; `nil` if it
/// did not return in time. Records nothing — a child says what went wrong by the sentence it returns.
public func within<Result>(_ seconds: Double, _ body: @escaping @Sendable () -> Result) -> Result? {
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
public func finishes(within seconds: Double = 2, _ body: @escaping @Sendable () -> Void) -> Bool {
    within(seconds, body) != nil
}

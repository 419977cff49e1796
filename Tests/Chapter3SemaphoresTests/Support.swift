import Foundation
import Testing
import WorkbookTestSupport

// Helpers for Chapter 3's suites that the shared test support does not have.

// MARK: - Objects that must never be released

/// Learner objects the tests keep for the whole run.
///
/// libdispatch traps (on every platform; measured on Linux x86-64 as SIGILL in
/// `_dispatch_semaphore_dispose`) when a `DispatchSemaphore` is released while its count is below the value it
/// was created with. A wrong answer that leaves a place taken would otherwise crash the whole test
/// process when its test ends, and hide every other result. So tests in the main process never let
/// a presenter, service or limiter go; only the exit tests release one, on purpose, in a child.
private let keptAlive = Tally<AnyObject>()

/// Keeps `object` alive until the process ends, and returns it.
func keptForever<Object: AnyObject>(_ object: Object) -> Object {
    keptAlive.append(object)
    return object
}

// MARK: - Which thread is calling

/// Marks the threads that call into learner code, so that a fake can tell whether the learner ran
/// its work on the caller's thread instead of a queue of its own.
enum CallerThread {
    private static let key = "workbook.chapter3.caller"

    /// Marks the current thread as one of the test's calling threads.
    static func mark() { Thread.current.threadDictionary[key] = true }

    /// `true` on a thread marked with ``mark()``.
    static var isCurrent: Bool { Thread.current.threadDictionary[key] != nil }
}

// MARK: - Exit tests

/// What a trap while releasing an object with a place still taken means, for the lifetime tests.
func releasedWhileTaken(_ object: String, _ callback: String) -> String {
    "libdispatch stops the program when a DispatchSemaphore is freed while its count is below the value it was created with (on Apple platforms the crash report says \"Semaphore object deallocated while in use\"; on Linux with no message, SIGILL on x86-64) — here, when the \(object) went away while a place was still taken. A \(callback) that reaches the semaphore through `[weak self]` or `[unowned self]` cannot give the place back once the \(object) is gone. Read README: \"Keep the semaphore alive until its last signal()\"."
}

// MARK: - Bounded calls that record nothing (for exit tests' children)

/// Waits up to `seconds` for `isTrue` to hold, polling; tells whether it does.
func eventually(within seconds: Double = 2, _ isTrue: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !isTrue() {
        if Date() >= deadline { return isTrue() }
        usleep(1_000)
    }
    return true
}

/// "1.02 s" or "140 ms", for messages.
func duration(since start: Date) -> String {
    let seconds = Date().timeIntervalSince(start)
    return seconds >= 1 ? String(format: "%.2f s", seconds) : "\(Int(seconds * 1_000)) ms"
}

/// Said when something that must wait for a place happened after most of a second: the sign of a
/// `wait(timeout:)` whose result was not looked at.
func timedWaitHint(since start: Date) -> String {
    Date().timeIntervalSince(start) > 0.5
        ? " It happened only after a while: a `wait(timeout:)` that runs out returns `.timedOut` without taking a place — if you use one, look at its result."
        : ""
}

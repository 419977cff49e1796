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

/// For the "may go away while … in flight" children: makes an object (`make`), uses it once (`use`)
/// and lets it go; then waits until that use has started (`started`, bounded) — the child's time-out
/// sentence `late` when it has not — and up to 1 s more for the object's own blocks to finish and
/// let go of it.
func letGoAfterOneUse<Object: AnyObject>(
    _ make: () -> Object, _ use: (Object) -> Void, started: () -> Bool, else late: String
) -> String? {
    weak var objectLeft: Object?
    do {
        let object = make()
        objectLeft = object
        use(object)
    }
    guard started() else { return childTimedOut(late) }
    // Let the object's own blocks finish and let go of it.
    _ = eventually(within: 1) { objectLeft == nil }
    return nil
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

// MARK: - One at a time

/// Lets `count` requests (or jobs) through one at a time, as the "what one left is seen by the next"
/// tests do: waits for each to start (`started(n, seconds)`: the n-th started within `seconds`),
/// reports once, as `overlap(n)`, a next one that started while the n-th was still running, and
/// finishes the n-th (`finish(n, write)`), with something to write only while none has overlapped.
/// Returns whether two overlapped, or `nil` after recording a time-out: `first` when the first did
/// not start within 2 s, `late(n)` when the n-th did not.
func oneAtATime(
    _ count: Int, started: (_ number: Int, _ seconds: Double) -> Bool, first: String, late: (_ number: Int) -> String,
    overlap: (_ number: Int) -> String, finish: (_ number: Int, _ write: Bool) -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool? {
    var overlapped = false
    for number in 1...count {
        guard started(number, 2) else {
            recordTimeout(number == 1 ? first : late(number), sourceLocation: sourceLocation)
            return nil
        }
        if number < count, !overlapped, started(number + 1, 0.1) {
            overlapped = true
            recordIssue(Comment(rawValue: overlap(number)), sourceLocation: sourceLocation)
        }
        finish(number, !overlapped)
    }
    return overlapped
}

/// For an exit test's child, the "released with … waiting" tests: lets `count` things asked for
/// through one at a time, whoever holds the object asked: waits for each to start (a time-out,
/// `first` or `late(n)`, when the first or the n-th did not within 2 s), says `overlap(n)` when the
/// next one started while the n-th was still running, and finishes the n-th (`finish(n)`: a
/// sentence ends the child).
func childOneAtATime(
    _ count: Int, started: (_ number: Int, _ seconds: Double) -> Bool, first: String, late: (_ number: Int) -> String,
    overlap: (_ number: Int) -> String, finish: (_ number: Int) -> String?
) -> String? {
    for number in 1...count {
        guard started(number, 2) else { return childTimedOut(number == 1 ? first : late(number)) }
        if number < count, started(number + 1, 0.1) { return overlap(number) }
        if let problem = finish(number) { return problem }
    }
    return nil
}

/// Whether the first `count` jobs start at the same time: `startedInTime()` waits (bounded) for
/// them; when they do not, records a time-out saying `none` if `started()` is 0, or else
/// `fewer(started())` — the limiter ran fewer jobs at once than it may.
func firstJobsStart(
    _ startedInTime: () -> Bool, started: () -> Int, none: String, fewer: (_ started: Int) -> String,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    if startedInTime() { return true }
    let count = started()
    if count == 0 {
        recordTimeout(none, sourceLocation: sourceLocation)
    } else {
        recordIssue(Comment(rawValue: fewer(count)), sourceLocation: sourceLocation)
    }
    return false
}

/// The verdicts of the "what one left is seen by the next" tests, over `count` requests (or jobs):
/// each saw what its caller wrote (`notes`: 1, 2, …), and, when none overlapped, what the one before
/// it left (`previous`: 0, 1, …); `notesWrong` and `previousWrong` say what was seen instead.
func verifyHandOver(
    _ count: Int, notes: [Int], previous: [Int], overlapped: Bool,
    notesWrong: (_ notes: [Int]) -> String, previousWrong: (_ previous: [Int]) -> String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    verify(notes == Array(1...count), Comment(rawValue: notesWrong(notes)), sourceLocation: sourceLocation)
    if !overlapped {
        verify(previous == Array(0..<count), Comment(rawValue: previousWrong(previous)), sourceLocation: sourceLocation)
    }
}

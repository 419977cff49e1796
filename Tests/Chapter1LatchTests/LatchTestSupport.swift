import Foundation
import Synchronization
import Testing
import WorkbookTestSupport

// Helpers for Chapter 1's suites only (the shared ones live in WorkbookTestSupport).

/// Keeps the learner's latches alive until the process ends.
///
/// A latch that never opened, or a semaphore taken and never given back, may trap when it is
/// deallocated (libdispatch checks a semaphore's value in its destructor; a group still entered is
/// leaked instead, with its notify blocks). The tests hand every latch they make to this list, so that a wrong
/// answer fails its own test instead of crashing a later one.
private let kept = Tally<Unchecked<Any>>()

func keepAlive<T>(_ value: T) -> T {
    kept.append(Unchecked(value))
    return value
}

/// Makes a call into learner code on a thread the test owns, bounded; `true` if it returned in time.
@discardableResult
func returns(
    _ what: String, seconds: Double = 2, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () -> Void
) -> Bool {
    bounded(what, seconds: seconds, sourceLocation: sourceLocation) { body(); return true } != nil
}

/// A reference the test can fill in after the learner's object exists (so that a callback can reach
/// the latch it belongs to). Guarded by a lock, so the test's own bookkeeping never races.
final class Slot<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    init() {}

    var value: Value? {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); defer { lock.unlock() }; stored = newValue }
    }
}

/// The identity of the current thread, to check on which thread a callback ran.
func currentThreadID() -> UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

/// Runs `rounds` rounds on `threads` new threads; in every round each thread calls `body` once, and no
/// thread starts round *r* + 1 before every thread has finished round *r*.
///
/// `runConcurrently` makes many calls overlap on *one* object; this makes the few calls that each of
/// many objects gets overlap — the end of a count, where "who reached zero?" is decided, happens
/// `rounds` times with every thread arriving at once. Each thread has a start signal of its own, so
/// a fast thread cannot take a slow one's turn.
///
/// `spinning`: the rounds are released by a spinning barrier instead (``spinningRounds(threads:rounds:_:seconds:stopEarly:_:)``).
/// `stopEarly`, asked after each round with the number of rounds finished, ends the rounds there
/// when it returns `true` (an answer already shown wrong need not play them all: under the Thread
/// Sanitizer every racy round costs it a report's work). Returns how many rounds were played, or
/// `nil`, after recording a hang-kind failure naming `what`, if a round does not finish within
/// `seconds`.
@discardableResult
func runInRounds(
    threads: Int = 4, rounds: Int, _ what: String, seconds: Double = 5, spinning: Bool = false,
    stopEarly: (@Sendable (_ roundsDone: Int) -> Bool)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable (_ thread: Int, _ round: Int) -> Void
) -> Int? {
    let bound = AfterATimeOut.bound(seconds)
    let outcome = spinning
        ? spinningRounds(threads: threads, rounds: rounds, what, seconds: bound, stopEarly: stopEarly, body)
        : playRounds(threads: threads, rounds: rounds, what, seconds: bound, stopEarly: stopEarly, body)
    switch outcome {
    case let .played(count):
        return count
    case let .timedOut(problem):
        recordTimeout(problem, sourceLocation: sourceLocation)
        return nil
    }
}

/// How ``playRounds(threads:rounds:_:seconds:stopEarly:_:)`` ended.
enum RoundsOutcome {
    /// This many rounds finished (all of them, unless the rounds were stopped early).
    case played(Int)
    /// A round did not finish in time: the "… rounds finished within …" sentence.
    case timedOut(String)
}

/// The rounds of ``runInRounds(threads:rounds:_:seconds:stopEarly:sourceLocation:_:)``, which records nothing.
func playRounds(
    threads: Int = 4, rounds: Int, _ what: String, seconds: Double = 5,
    stopEarly: (@Sendable (_ roundsDone: Int) -> Bool)? = nil,
    _ body: @escaping @Sendable (_ thread: Int, _ round: Int) -> Void
) -> RoundsOutcome {
    let arrived = DispatchSemaphore(value: 0)
    let go = (0..<threads).map { _ in DispatchSemaphore(value: 0) }
    let stopped = Atomic<Bool>(false)
    for index in 0..<threads {
        let thread = Thread {
            for round in 0..<rounds {
                arrived.signal()
                // A thread whose round never starts (the test gave up) just stays parked.
                guard go[index].wait(timeout: .now() + seconds + 1) == .success,
                      !stopped.load(ordering: .acquiring) else { return }
                body(index, round)
            }
            arrived.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    let deadline = DispatchTime.now() + seconds
    for round in 0...rounds {
        for _ in 0..<threads where arrived.wait(timeout: deadline) == .timedOut {
            let finished = max(round - 1, 0)
            return .timedOut("\(what) — \(finished) of \(rounds) rounds finished within \(formatSeconds(seconds)); then a call "
                + "did not return. Something blocks its caller: a wait nobody signals, or `sync` onto a queue already running.")
        }
        if round < rounds, let stopEarly, stopEarly(round) {
            stopped.store(true, ordering: .releasing)
            for semaphore in go { semaphore.signal() }
            return .played(round)
        }
        if round < rounds { for semaphore in go { semaphore.signal() } }
    }
    return .played(rounds)
}

/// ``playRounds(threads:rounds:_:seconds:stopEarly:_:)``, with the rounds released by a spinning barrier, so
/// that the calls of a round meet within a fraction of a microsecond (see `SpinBarrier`): for a
/// check made apart from its change, which semaphore-released rounds show in some runs and not in
/// others. It costs processor time, so only the tests that need the collision use it. Thread 0
/// asks `stopEarly` at each barrier, when every thread has finished the rounds before it.
func spinningRounds(
    threads: Int = 4, rounds: Int, _ what: String, seconds: Double = 5,
    stopEarly: (@Sendable (_ roundsDone: Int) -> Bool)? = nil,
    _ body: @escaping @Sendable (_ thread: Int, _ round: Int) -> Void
) -> RoundsOutcome {
    let barrier = SpinBarrier(parties: threads)
    let finished = DispatchSemaphore(value: 0)
    let roundsDone = Atomic<Int>(0)
    let stoppedAfter = Atomic<Int>(-1)
    for index in 0..<threads {
        startThread {
            for round in 0..<rounds where !barrier.stopped {
                barrier.arriveAndWait(round: round)
                if index == 0 {
                    roundsDone.store(round, ordering: .relaxed)
                    if round > 0, let stopEarly, stopEarly(round) {
                        stoppedAfter.store(round, ordering: .relaxed)
                        barrier.stop()
                    }
                }
                if barrier.stopped { break }
                body(index, round)
            }
            finished.signal()
        }
    }
    let deadline = DispatchTime.now() + seconds
    for _ in 0..<threads where finished.wait(timeout: deadline) == .timedOut {
        barrier.stop()
        return .timedOut("\(what) — \(roundsDone.load(ordering: .relaxed)) of \(rounds) rounds finished within \(formatSeconds(seconds)); then a call "
            + "did not return. Something blocks its caller: a wait nobody signals, or `sync` onto a queue already running.")
    }
    let stopped = stoppedAfter.load(ordering: .relaxed)
    return .played(stopped >= 0 ? stopped : rounds)
}

/// ``spinningRounds(threads:rounds:_:seconds:stopEarly:_:)``'s time-out sentence, for a child
/// process; `nil` when every round finished.
func spinningRoundsProblem(
    threads: Int = 4, rounds: Int, _ what: String, seconds: Double = 5,
    _ body: @escaping @Sendable (_ thread: Int, _ round: Int) -> Void
) -> String? {
    if case let .timedOut(problem) = spinningRounds(threads: threads, rounds: rounds, what, seconds: seconds, body) { return problem }
    return nil
}

/// `runConcurrently` for a child process: `threads` gated threads, each calling `body` `iterations`
/// times; returns a "Timed out: …" sentence if they do not all finish within `seconds`, else `nil`.
func gatedProblem(
    threads: Int = 4, iterations: Int, _ what: String, seconds: Double = 5,
    _ body: @escaping @Sendable (_ thread: Int, _ iteration: Int) -> Void
) -> String? {
    guard gatedThreads(threads: threads, iterations: iterations, seconds: seconds, body) else {
        return childTimedOut("\(what) — the \(threads) threads did not all finish within \(Int(seconds)) s; a call blocked (a wait nobody signals, or `sync` onto a queue already running).")
    }
    return nil
}

import Chapter1Latch
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
/// `spinning`: the rounds are released by a spinning barrier instead, and end after `meetings`
/// rounds whose threads began together when it is given (``spinningRounds(threads:rounds:meetings:_:seconds:stopEarly:_:)``).
/// `stopEarly`, asked after each round with the number of rounds finished, ends the rounds there
/// when it returns `true` (an answer already shown wrong need not play them all: under the Thread
/// Sanitizer every racy round costs it a report's work). Returns how many rounds were played, or
/// `nil`, after recording a hang-kind failure naming `what`, if a round does not finish within
/// `seconds`.
@discardableResult
func runInRounds(
    threads: Int = 4, rounds: Int, _ what: String, seconds: Double = 5, spinning: Bool = false, meetings: Int? = nil,
    stopEarly: (@Sendable (_ roundsDone: Int) -> Bool)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable (_ thread: Int, _ round: Int) -> Void
) -> Int? {
    let bound = AfterATimeOut.bound(seconds)
    let outcome = spinning
        ? spinningRounds(threads: threads, rounds: rounds, meetings: meetings, what, seconds: bound, stopEarly: stopEarly, body)
        : playRounds(threads: threads, rounds: rounds, what, seconds: bound, stopEarly: stopEarly, body)
    switch outcome {
    case let .played(count):
        return count
    case let .timedOut(problem):
        recordTimeout(problem, sourceLocation: sourceLocation)
        return nil
    }
}

/// The two kinds of rounds of the collision tests of 1.1 and 1.2, whose wrong answers show only
/// when the last two calls of a latch meet between the answer's own steps, on its own queue, which
/// no test can hold (Exercises/MEASUREMENTS.md, M19, M20).
enum CollisionPhase: CaseIterable {
    /// Two threads let go by a spinning barrier: on two idle cores they meet at once. Beside busy
    /// processes one of them often waits for a core, so only the rounds whose two calls began
    /// within a microsecond count, up to `meetings` of them.
    case spinningPairs
    /// Four threads woken by semaphores each round: more calls for every latch, which held beside
    /// other busy processes when the pairs did not meet.
    case wokenFours

    var threads: Int { self == .spinningPairs ? 2 : 4 }
    var spinning: Bool { self == .spinningPairs }
    /// How many rounds whose calls met end the spinning pairs.
    var meetings: Int? { spinning ? 4_000 : nil }

    /// The most rounds this kind plays: a latch each.
    func rounds(fours: Int) -> Int { spinning ? 12_000 : fours }

    /// "two threads calling up to 12 000 latches, one round per latch", for time-outs.
    func what(rounds: Int, _ things: String) -> String {
        "\(spinning ? "two" : "four") threads calling \(spinning ? "up to " : "")\(spacedThousands(rounds)) \(things), one round per latch"
    }

    /// Whether `fired` runs of `whenZero` after `roundsDone` rounds show a wrong answer: with
    /// semaphore rounds every round is over, so any other count; with spinning rounds the other
    /// thread may still be in the last round (``spinningRounds(threads:rounds:meetings:_:seconds:stopEarly:_:)``),
    /// whose run may be missing yet.
    func wrongCount(_ fired: Int, _ roundsDone: Int) -> Bool {
        spinning ? fired > roundsDone || fired < roundsDone - 1 : fired != roundsDone
    }
}

/// 12000 as "12 000", the way the tests' messages write numbers.
func spacedThousands(_ number: Int) -> String {
    number < 1_000 ? "\(number)" : String(format: "%d %03d", number / 1_000, number % 1_000)
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
/// others. It costs processor time, so only the tests that need the collision use it.
///
/// Thread 0 asks `stopEarly` after each of its own rounds, with the number of rounds it has
/// finished: the other threads have finished all but the last of those, and may still be in it.
/// (Asking before its round, at the barrier, would start thread 0 late: the calls would not meet.)
///
/// `meetings`: the rounds end once that many of them began with every thread within a microsecond
/// of the others, or once `seconds` / 3 have gone by (`rounds` is then the most it plays). On a
/// machine busy with other processes a thread often waits for a core and leaves the barrier late,
/// and such a round shows nothing; on one whose cores are all busy, few rounds meet at all, and the
/// rounds must still end well within their bound.
func spinningRounds(
    threads: Int = 4, rounds: Int, meetings: Int? = nil, _ what: String, seconds: Double = 5,
    stopEarly: (@Sendable (_ roundsDone: Int) -> Bool)? = nil,
    _ body: @escaping @Sendable (_ thread: Int, _ round: Int) -> Void
) -> RoundsOutcome {
    let barrier = SpinBarrier(parties: threads)
    // When each thread began its latest round. Thread 0 reads them after its round r, before any
    // thread can begin round r + 1; one not yet past its mark still holds round r − 1's, which
    // never meets the others'.
    let began = (0..<threads).map { _ in TimeMark() }
    let finished = DispatchSemaphore(value: 0)
    let roundsDone = Atomic<Int>(0)
    // The rounds thread 0 played when it stopped them: every thread plays those to the end, even
    // one that leaves the barrier only after thread 0 has finished its last round. (Relaxed, as
    // everything here: an ordering would hide from TSan what the calls of a round do.)
    let stoppedAfter = Atomic<Int>(.max)
    let endOfPlay = DispatchTime.now() + (meetings == nil ? .never : .milliseconds(Int(seconds * 1_000 / 3)))
    for index in 0..<threads {
        startThread {
            var met = 0  // thread 0's count of the rounds whose threads began together
            for round in 0..<rounds where !barrier.stopped {
                barrier.arriveAndWait(round: round)
                if round >= stoppedAfter.load(ordering: .relaxed) { break }
                began[index].mark()
                body(index, round)
                guard index == 0 else { continue }
                roundsDone.store(round + 1, ordering: .relaxed)
                if TimeMark.together(began) { met += 1 }
                if (stopEarly?(round + 1) ?? false) || met == meetings || DispatchTime.now() > endOfPlay {
                    stoppedAfter.store(round + 1, ordering: .relaxed)
                    barrier.stop()
                }
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
    return .played(min(stoppedAfter.load(ordering: .relaxed), rounds))
}

/// ``spinningRounds(threads:rounds:meetings:_:seconds:stopEarly:_:)``'s time-out sentence, for a child
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

/// 1.1's and 1.2's collision tests: plays each kind of rounds (``CollisionPhase``) through
/// `collide`, the second only if the first showed nothing; stops at a recorded time-out.
func playCollisionPhases(_ collide: (CollisionPhase) -> Bool?) {
    for phase in CollisionPhase.allCases {
        guard let shown = collide(phase) else { return }  // a time-out, recorded
        if shown { return }
    }
}

/// 1.1's and 1.2's "runs on the last caller" test: `call` is one call of a latch of 2 whose
/// whenZero appends its thread to `ranOn`. The 2nd call must run whenZero on its own thread, before
/// it returns.
func expectWhenZeroOnTheLastCaller(
    _ ranOn: Tally<UInt>, sourceLocation: SourceLocation = #_sourceLocation, _ call: @escaping @Sendable () -> Void
) {
    guard returns("the 1st of 2 calls", sourceLocation: sourceLocation, call) else { return }
    guard case let (caller, seen)? = bounded("the 2nd of 2 calls", sourceLocation: sourceLocation, { () -> (UInt, [UInt]) in
        let caller = currentThreadID()
        call()
        return (caller, ranOn.all)
    }) else { return }
    if seen.isEmpty {
        recordIssue("when the 2nd call of a latch of 2 returned, whenZero had not run yet. Run it right there, in the call that reached zero (not later, not on another queue).", sourceLocation: sourceLocation)
    } else if seen != [caller] {
        recordIssue("whenZero ran on another thread than the one that made the last call. Call it directly, after `sync` returns — don't hand it to a queue.", sourceLocation: sourceLocation)
    }
}

/// 1.1's and 1.2's visibility test: four threads each write their iteration number into plain
/// memory before each of their 200 calls of a latch of 800 that `make(count, whenZero)` makes; the
/// latch's whenZero must see every write. `alsoVerify` runs, after the calls, before that is checked.
func expectWhenZeroSeesWhatEveryCallerWrote<Latch>(
    make: @escaping @Sendable (_ count: Int, _ whenZero: @escaping @Sendable () -> Void) -> Latch,
    call: @escaping @Sendable (Latch) -> Void, alsoVerify: () -> Void = {},
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let threads = 4, iterations = 200
    // Plain memory, one slot per thread, written before every call and read by whenZero: the
    // Thread Sanitizer reports the read unless every earlier call happens before whenZero.
    let written = Unchecked(UnsafeMutablePointer<Int>.allocate(capacity: threads))
    written.value.initialize(repeating: 0, count: threads)
    let seen = Tally<[Int]>()
    guard let latch = bounded("makeLatch(count: 800)", sourceLocation: sourceLocation, {
        Unchecked(keepAlive(make(threads * iterations) {
            seen.append((0..<threads).map { written.value[$0] })
        }))
    }) else { return }
    runConcurrently(threads: threads, iterations: iterations, "four threads each writing, then calling the latch, 200 times", sourceLocation: sourceLocation) { thread, iteration in
        written.value[thread] = iteration + 1
        call(latch.value)
    }
    alsoVerify()
    verify(seen.all == [[Int](repeating: iterations, count: threads)], "four threads each wrote their iteration number before each of their 200 calls; whenZero saw \(seen.all) (it must run once and see [200, 200, 200, 200]). What a caller did before its call must happen before whenZero: decide \"zero\" in the same critical section (or an atomic with acquiring-and-releasing order) that every call goes through.", sourceLocation: sourceLocation)
}

/// For a child, 1.1's and 1.2's lifetime dimension: latches made by `make(count, whenZero)` are let
/// go before zero, at zero, of zero, and from inside their own whenZero; `call(latch, reachesZero)`
/// makes one call (`reachesZero`: whether it is the call that brings the count to zero). Nothing may
/// trap, and only the latches that reached zero may run whenZero. Returns the child's sentence.
func latchesLetGoInEveryState<Latch>(
    make: @escaping @Sendable (_ count: Int, _ whenZero: @escaping @Sendable () -> Void) -> Latch,
    call: @escaping @Sendable (_ latch: Latch, _ reachesZero: Bool) -> Void
) -> String? {
    let runs = Tally<String>()
    guard within(2, { () -> Void in
        do { _ = make(3) { runs.append("never called") } }
        do { call(make(3) { runs.append("called once") }, false) }
        do {
            let latch = make(2) { runs.append("reached zero") }
            call(latch, false); call(latch, true)
        }
        do { _ = make(0) { runs.append("of zero") } }
        // The slot holds the only reference, and whenZero lets go of it while the call that
        // reached zero is still running.
        let slot = Slot<Unchecked<Latch>>()
        slot.value = Unchecked(make(1) { runs.append("let go inside whenZero"); slot.value = nil })
        if let latch = slot.value?.value { call(latch, true) }
    }) != nil else { return childTimedOut("making latches, calling them and letting them go did not return within 2 s") }
    if runs.all != ["reached zero", "of zero", "let go inside whenZero"] {
        return "latches let go in different states ran whenZero for \(runs.all); only those that reached zero may (reached zero, of zero, let go inside whenZero)"
    }
    return nil
}

/// 1.3's measured wait: `latch.wait(timeout:)`, with the deadline `timeout` gives as the wait
/// starts, and how long the wait took, in seconds.
func timedWait(_ latch: CountDownLatch, _ timeout: @autoclosure () -> DispatchTime) -> (DispatchTimeoutResult, Double) {
    let start = DispatchTime.now()
    let result = latch.wait(timeout: timeout())
    return (result, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
}

extension QueueHold {
    /// For a child (1.3's notify tests, which hold the notify queue so that a notify block handed to
    /// it cannot run there yet, and one that runs anyway ran somewhere else): the time-out sentence
    /// when the test's block had not started holding the queue within 2 s; `nil` once it holds it.
    func notHolding() -> String? {
        isHolding(within: 2) ? nil : childTimedOut("the test's own queue did not start")
    }
}

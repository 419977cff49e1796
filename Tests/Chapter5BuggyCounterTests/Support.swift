import Dispatch
import Foundation
import Synchronization
import Testing
import WorkbookTestSupport

// Chapter 5's test helpers: a bounded way to let a queue catch up, a way to keep a queue busy so
// that "asynchronously" can be checked every run, fake work that remembers where it was started
// and how many callbacks were made, pairs of callbacks released together, and the judging of exit
// tests (whose children may trap or hang on a wrong answer).

// MARK: - Queues

/// Waits, at most `seconds`, until every block sent to `target.queue` so far has run.
///
/// A plain `target.queue.sync {}` would hang the test if the learner's code blocks the queue (a
/// `wait()` inside a block sent to it); this records a hang-kind failure instead.
@discardableResult
func drain(_ target: TestQueue, _ what: String, seconds: Double = 2, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    target.caughtUp(seconds: seconds, sourceLocation: sourceLocation) {
        "\(what): the queue passed as `queue` was still busy \($0) later. Something sent to it "
            + "blocks it — a `wait()` inside a block on `queue` holds up everything queued behind it."
    }
}

/// `drain` for exit-test children, which cannot record issues: `true` when the queue caught up.
func drained(_ target: TestQueue, within seconds: Double = 2) -> Bool { target.caughtUp(within: seconds) }

/// Holds `target`'s queue (``QueueHold``) for at most 1 s, once the test's block has started there
/// (waiting at most 1 s for that). A completion sent with `async` while it holds runs only after the
/// release — so one that runs before the code under test has returned must have been run
/// synchronously (or on another queue), in every run, not just in unlucky ones.
func held(_ target: TestQueue) -> QueueHold {
    let hold = QueueHold(target, seconds: 1)
    _ = hold.isHolding(within: 1)
    return hold
}

// MARK: - Fake work that is watched

/// Fake work for `performAll` and `runAll` that records on which thread each piece was started,
/// how many of its callbacks have been made, and whether the call under test had returned when
/// the completion ran.
final class WorkProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var caller: pthread_t?
    private var startedCount = 0
    private var startedElsewhere = 0
    private var callbacksMade = 0
    private var returned = false
    private var completionsSeen: [(onQueue: Bool, callbacksBefore: Int, afterReturn: Bool)] = []
    let held = HeldCallbacks()
    let target = TestQueue()
    private let completed = DispatchSemaphore(value: 0)
    private let callbackFinished = DispatchSemaphore(value: 0)

    /// Call on the thread that is about to call the code under test.
    func callerIsCurrentThread() {
        lock.lock(); defer { lock.unlock() }
        caller = pthread_self()
    }

    /// Call right after the code under test has returned.
    func callReturned() {
        lock.lock(); defer { lock.unlock() }
        returned = true
    }

    /// Makes the call under test (`body`) from a thread of the test's, noted as the caller, and
    /// bounded (``bounded(_:seconds:sourceLocation:_:)``): `false`, after a hang-kind failure naming
    /// `what`, if it did not return within 2 s.
    func calls(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: @escaping @Sendable () -> Void) -> Bool {
        let returned: Void? = bounded(what, sourceLocation: sourceLocation) { [self] in
            callerIsCurrentThread()
            body()
            callReturned()
        }
        return returned != nil
    }

    private func noteStart() {
        lock.lock(); defer { lock.unlock() }
        startedCount += 1
        if let caller, pthread_equal(caller, pthread_self()) == 0 { startedElsewhere += 1 }
    }

    /// Wraps a callback so that it is counted when it is made, and signals once it has returned.
    private func watched(_ done: @escaping () -> Void) -> () -> Void {
        { [self] in
            lock.lock()
            callbacksMade += 1
            lock.unlock()
            done()
            callbackFinished.signal()
        }
    }

    /// Work whose callback the test releases later (see ``HeldCallbacks``).
    var heldWork: (@escaping () -> Void) -> Void {
        { [self] done in
            noteStart()
            held.work(watched(done))
        }
    }

    /// Work that calls back before it returns, or later from a new thread.
    func work(_ style: CallbackStyle) -> (@escaping () -> Void) -> Void {
        { [self] done in
            noteStart()
            fakeWork(style)(watched(done))
        }
    }

    /// The completion to hand to the code under test.
    var completion: () -> Void {
        { [self] in
            let onQueue = target.isCurrent
            lock.lock()
            completionsSeen.append((onQueue, callbacksMade, returned))
            lock.unlock()
            completed.signal()
        }
    }

    var started: Int { lock.lock(); defer { lock.unlock() }; return startedCount }
    var startedOnOtherThreads: Int { lock.lock(); defer { lock.unlock() }; return startedElsewhere }
    var completions: [(onQueue: Bool, callbacksBefore: Int, afterReturn: Bool)] {
        lock.lock(); defer { lock.unlock() }
        return completionsSeen
    }

    /// Waits at most `seconds` for the first completion.
    func firstCompletion(within seconds: Double = 2) -> Bool {
        completed.wait(timeout: .now() + AfterATimeOut.bound(seconds)) == .success
    }

    /// Waits at most `seconds` until `count` callbacks have been made and have returned.
    func callbacksFinished(_ count: Int, within seconds: Double = 2) -> Bool {
        let deadline = DispatchTime.now() + AfterATimeOut.bound(seconds)
        for _ in 0..<count where callbackFinished.wait(timeout: deadline) == .timedOut { return false }
        return true
    }

    /// Makes the held callbacks (`count` of them, `counted` as failures say it: "2 000") from 4
    /// threads at once, then checks that the call under test (`name`) runs completion exactly once,
    /// on `queue`, after the last of them. Records every failure itself.
    func completesAfterHeldCallbacks(of name: String, count: Int, counted: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard held.releaseAll(threads: 4, "calling back \(counted) times from 4 threads") else { return }
        guard firstCompletion() else {
            recordTimeout("\(name): completion was not called within 2 s of the last of \(counted) callbacks (made from 4 threads at once)", sourceLocation: sourceLocation)
            return
        }
        guard drain(target, "after completion", sourceLocation: sourceLocation) else { return }
        if let problem = problemWithCompletions(of: name, callbacks: count) { recordIssue(Comment(rawValue: problem), sourceLocation: sourceLocation) }
    }

    /// What is wrong with the completions seen so far, if anything: `name` is the call under test
    /// ("performAll(times: 3, …)"), `callbacks` how many callbacks it had to wait for, and
    /// `queueWasHeld` whether a ``QueueHold`` kept `queue` busy until the call had returned.
    func problemWithCompletions(of name: String, callbacks: Int, queueWasHeld: Bool = false) -> String? {
        let seen = completions
        if let problem = completionProblem(
            name, ran: seen.map { ($0.onQueue, $0.callbacksBefore) }, callbacks: callbacks,
            moreThanOnce: " Zero means \"all done\" only once every piece has been counted.",
            offQueue: " (send it there with `queue.async` or `notify(queue:)`)"
        ) { return problem }
        if queueWasHeld && !seen[0].afterReturn {
            return "\(name) ran completion before it had returned, although `queue` was busy all that time: it did not run as a block of `queue` after the call returned (a direct call, or `queue.sync`)."
        }
        return nil
    }
}

/// What is wrong with the completions a call ran — whether each ran on `queue`, and after how many
/// of the `callbacks` it had to wait for — checked as every test of 5.2 and 5.3 checks them: none,
/// more than one, off `queue`, too early; `nil` when none of those went wrong. `moreThanOnce` and
/// `offQueue` end those two sentences in the words of the kind of test.
func completionProblem(
    _ name: String, ran seen: [(onQueue: Bool, callbacksBefore: Int)], callbacks: Int,
    moreThanOnce: String, offQueue: String
) -> String? {
    guard let only = seen.first else {
        return "\(name) never ran completion, although all \(callbacks) callbacks had been made."
    }
    if seen.count > 1 {
        let early = seen.map(\.callbacksBefore).map(String.init).joined(separator: ", ")
        return "\(name) ran completion \(seen.count) times (after \(early) of \(callbacks) callbacks); it must run exactly once, after the last callback.\(moreThanOnce)"
    }
    if !only.onQueue {
        return "\(name) ran completion on another thread or queue; it must run on the `queue` passed in\(offQueue)."
    }
    if only.callbacksBefore < callbacks {
        return "\(name) ran completion after \(only.callbacksBefore) of \(callbacks) callbacks; it must wait for every one."
    }
    return nil
}

// MARK: - Pairs of callbacks released together

/// Calls pairs of callbacks from two threads of its own, round by round: in each round the two
/// threads spin until both have arrived, then each calls its callback of that round at once. The
/// two last callbacks of a call thus arrive within a fraction of a microsecond of each other, round
/// after round — where a check for zero made apart from the decrement goes wrong.
///
/// (A semaphore between rounds is far too slow for this: the second thread wakes tens of
/// microseconds after the first, long after its short critical sections are over.)
///
/// Returns how many rounds' two calls really overlapped in time (each thread notes when its call
/// began and ended): on a busy machine the two threads may not both have a processor, and then
/// a round's calls run one after the other and prove nothing. Returns `nil`, after recording a
/// hang-kind failure, if the rounds do not finish within `seconds`. The threads then skip the
/// rounds left and are waited for a little longer, so that no thread of this test goes on calling
/// learner code (and maybe racing) while other tests run or the process exits; only a callback
/// that never returns keeps its thread.
@discardableResult
func releaseInPairs(
    _ pairs: [(() -> Void, () -> Void)], _ what: String, seconds: Double = 5,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Int? {
    let callbacks = Unchecked(pairs)
    let barrier = SpinBarrier(parties: 2)
    let finished = DispatchSemaphore(value: 0)
    // Each thread writes only its own half; they are read after both have signalled `finished`.
    let began = Unchecked(UnsafeMutablePointer<UInt64>.allocate(capacity: 2 * pairs.count))
    let ended = Unchecked(UnsafeMutablePointer<UInt64>.allocate(capacity: 2 * pairs.count))
    began.value.initialize(repeating: 0, count: 2 * pairs.count)
    ended.value.initialize(repeating: 0, count: 2 * pairs.count)
    for thread in 0..<2 {
        startThread {
            for round in callbacks.value.indices where !barrier.stopped {
                barrier.arriveAndWait(round: round)
                let pair = callbacks.value[round]
                began.value[2 * round + thread] = DispatchTime.now().uptimeNanoseconds
                if thread == 0 { pair.0() } else { pair.1() }
                ended.value[2 * round + thread] = DispatchTime.now().uptimeNanoseconds
            }
            finished.signal()
        }
    }
    let limit = AfterATimeOut.bound(seconds)
    let deadline = DispatchTime.now() + limit
    for _ in 0..<2 where finished.wait(timeout: deadline) == .timedOut {
        barrier.stop()
        let later = DispatchTime.now() + AfterATimeOut.bound(3)
        for _ in 0..<2 where finished.wait(timeout: later) == .timedOut { break }
        // Left allocated: a thread stuck in a callback may still write its half.
        recordTimeout(
            "\(what) — the 2 test threads did not finish within \(formatSeconds(limit)); something the callbacks call blocks.",
            sourceLocation: sourceLocation)
        return nil
    }
    let overlapped = pairs.indices.filter { round in
        max(began.value[2 * round], began.value[2 * round + 1]) < min(ended.value[2 * round], ended.value[2 * round + 1])
    }.count
    began.value.deallocate()
    ended.value.deallocate()
    return overlapped
}

// MARK: - The last two callbacks at the same moment

/// How ``lastTwoCallbacksTogether(rounds:_:sourceLocation:start:)`` names the call under test in
/// its failures: 5.2's and 5.3's exercises differ only in these words.
struct CollidingCalls: Sendable {
    /// The call, as a failure names it: "performAll(times: 2, …)".
    var call: String
    /// The pieces of work, as "with … that had not called back yet" and "before any … had called
    /// back" name them: "work", "function".
    var piece: String
    /// What a call that did not start both pieces of work did, for `started` pieces in `rounds`
    /// calls.
    var startedWrongly: @Sendable (_ started: Int, _ rounds: Int) -> String
    /// "the two callbacks of performAll(times: 2, …) came": the collision, as the verdict tells it.
    var collided: String
}

/// 5.2's and 5.3's collision test: batches of `rounds` calls (`start(round, park, queue,
/// completion)`), each call handed two pieces of work that keep their callbacks; once every call
/// of a batch has returned and `queue` has caught up, the two callbacks of each call are made from
/// two threads at the same moment (``releaseInPairs(_:_:seconds:sourceLocation:)``), and completion
/// must then run exactly once per call. Records every failure itself.
///
/// As certain as it can be made: nothing of the learner's runs while the callbacks are parked, and
/// both callbacks of a round leave a spinning barrier within a fraction of a microsecond of each
/// other. A decrement and a test for zero made in two steps collide only when the other callback's
/// decrement falls between them, which no test can force (both steps are the learner's own, on a
/// queue or lock of their own). So the test counts the rounds whose two calls really ran at the
/// same time, and goes on, batch after batch, until `overlapsWanted` of them have, or `seconds`
/// have passed: while the machine is busy (other tests of the run, other processes) the two
/// threads often do not both get a processor, their calls then take turns, and a batch of 1 000
/// rounds showed 0–4 collisions where one whose calls overlapped showed ~600. Measured for issue 15
/// on 2 shared cores with 5.2's split check: one batch caught it in 19 of 20 runs (5.3's: 20 of
/// 20, some runs by a single collision); these batches in 40 of 40; pinned to one core
/// (`taskset -c 0`), where only a preemption between the two steps collides (about once in 30 000
/// rounds), in 7 of 8.
func lastTwoCallbacksTogether(
    rounds: Int = 1_000, overlapsWanted: Int = 300, seconds: Double = 3, _ calls: CollidingCalls,
    sourceLocation: SourceLocation = #_sourceLocation,
    start: @escaping @Sendable (
        _ round: Int, _ park: @escaping (@escaping () -> Void) -> Void,
        _ queue: DispatchQueue, _ completion: @escaping () -> Void
    ) -> Void
) {
    let deadline = DispatchTime.now() + seconds
    var overlapped = 0
    repeat {
        guard let more = collisionBatch(rounds: rounds, calls, sourceLocation: sourceLocation, start: start) else { return }
        overlapped += more
    } while overlapped < overlapsWanted && DispatchTime.now() < deadline
}

/// One batch of ``lastTwoCallbacksTogether(rounds:overlapsWanted:seconds:_:sourceLocation:start:)``:
/// how many rounds' calls overlapped, or `nil` once a failure is recorded.
private func collisionBatch(
    rounds: Int, _ calls: CollidingCalls, sourceLocation: SourceLocation,
    start: @escaping @Sendable (
        _ round: Int, _ park: @escaping (@escaping () -> Void) -> Void,
        _ queue: DispatchQueue, _ completion: @escaping () -> Void
    ) -> Void
) -> Int? {
    let target = TestQueue()
    let completions = Tally<Int>(), arrived = DispatchSemaphore(value: 0)
    let parked = Tally<Unchecked<() -> Void>>()
    let park: (@escaping () -> Void) -> Void = { done in parked.append(Unchecked(done)) }
    let parking = Unchecked(park)
    let returned: Void? = bounded(
        "\(rounds) calls of \(calls.call), with \(calls.piece) that had not called back yet,",
        sourceLocation: sourceLocation
    ) {
        for round in 0..<rounds {
            start(round, parking.value, target.queue) {
                completions.append(round)
                arrived.signal()
            }
        }
    }
    guard returned != nil else {
        for callback in parked.all { callback.value() }
        return nil
    }
    let callbacks = parked.all.map(\.value)
    guard callbacks.count == 2 * rounds else {
        recordIssue(Comment(rawValue: calls.startedWrongly(callbacks.count, rounds)), sourceLocation: sourceLocation)
        return nil
    }
    guard drain(target, "after \(rounds) calls of \(calls.call) returned", sourceLocation: sourceLocation) else {
        for callback in callbacks { callback() }
        return nil
    }
    guard completions.count == 0 else {
        recordIssue("completion ran before any \(calls.piece) had called back (\(completions.count) times in \(rounds) calls of \(calls.call))",
                     sourceLocation: sourceLocation)
        return nil
    }
    // Typed, and stepped by two: inferred from `2 * $0` indices, this line alone took 1.4 s of the
    // suite's build to type-check (Swift 6.3.1, `-warn-long-expression-type-checking`).
    let pairs: [(() -> Void, () -> Void)] = stride(from: 0, to: 2 * rounds, by: 2).map { first in
        (callbacks[first], callbacks[first + 1])
    }
    guard let overlapped = releaseInPairs(pairs, "calling back the two pieces of each call from 2 threads at once",
                                          sourceLocation: sourceLocation) else { return nil }
    let deadline = DispatchTime.now() + AfterATimeOut.bound(2)
    for _ in 0..<rounds where arrived.wait(timeout: deadline) == .timedOut {
        recordTimeout("\(rounds - completions.count) of \(rounds) calls of \(calls.call) did not run completion within 2 s of their two callbacks",
                      sourceLocation: sourceLocation)
        return nil
    }
    guard drain(target, "after the completions", sourceLocation: sourceLocation) else { return nil }
    var runs = [Int](repeating: 0, count: rounds)
    for round in completions.all { runs[round] += 1 }
    let twice = runs.filter { $0 > 1 }.count
    guard twice == 0 else {
        recordIssue("""
            when \(calls.collided) at the same moment from two threads, completion ran \
            more than once in \(twice) of \(rounds) calls. What can two callbacks that come at the same moment both \
            see, between one change of the count and the next? See "Bug one: the race" in the lesson.
            """, sourceLocation: sourceLocation)
        return nil
    }
    return overlapped
}

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
func drain(
    _ target: TestQueue, _ what: String, seconds: Double = 2,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    let drained = Signal()
    target.queue.async { drained.fire() }
    return drained.wait(
        "\(what): the queue passed as `queue` was still busy \(formatSeconds(seconds)) later. Something sent to it "
            + "blocks it — a `wait()` inside a block on `queue` holds up everything queued behind it.",
        seconds: seconds, sourceLocation: sourceLocation)
}

/// `drain` for exit-test children, which cannot record issues: `true` when the queue caught up.
func drained(_ target: TestQueue, within seconds: Double = 2) -> Bool {
    let drained = Signal()
    target.queue.async { drained.fire() }
    return drained.happens(within: seconds)
}

/// Keeps a serial queue busy until ``release()`` (or, at the latest, `seconds` later).
///
/// A block sent to the queue with `async` while it is held runs only after the release — so a
/// completion that runs before the code under test has returned must have been run synchronously
/// (or on another queue), in every run, not just in unlucky ones.
final class QueueHold: Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let started = DispatchSemaphore(value: 0)

    init(_ target: TestQueue, seconds: Double = 1) {
        target.queue.async { [gate, started] in
            started.signal()
            _ = gate.wait(timeout: .now() + seconds)
        }
        // The queue is really busy once its block runs.
        _ = started.wait(timeout: .now() + seconds)
    }

    func release() { gate.signal() }
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
        completed.wait(timeout: .now() + seconds) == .success
    }

    /// Waits at most `seconds` until `count` callbacks have been made and have returned.
    func callbacksFinished(_ count: Int, within seconds: Double = 2) -> Bool {
        let deadline = DispatchTime.now() + seconds
        for _ in 0..<count where callbackFinished.wait(timeout: deadline) == .timedOut { return false }
        return true
    }

    /// What is wrong with the completions seen so far, if anything: `name` is the call under test
    /// ("performAll(times: 3, …)"), `callbacks` how many callbacks it had to wait for, and
    /// `queueWasHeld` whether a ``QueueHold`` kept `queue` busy until the call had returned.
    func problemWithCompletions(of name: String, callbacks: Int, queueWasHeld: Bool = false) -> String? {
        let seen = completions
        if seen.isEmpty {
            return "\(name) never ran completion, although all \(callbacks) callbacks had been made."
        }
        if seen.count > 1 {
            let early = seen.map(\.callbacksBefore).map(String.init).joined(separator: ", ")
            return "\(name) ran completion \(seen.count) times (after \(early) of \(callbacks) callbacks); it must run exactly once, after the last callback. Zero means \"all done\" only once every piece has been counted."
        }
        let only = seen[0]
        if !only.onQueue {
            return "\(name) ran completion on another thread or queue; it must run on the `queue` passed in (send it there with `queue.async` or `notify(queue:)`)."
        }
        if only.callbacksBefore < callbacks {
            return "\(name) ran completion after \(only.callbacksBefore) of \(callbacks) callbacks; it must wait for every one."
        }
        if queueWasHeld && !only.afterReturn {
            return "\(name) ran completion before it had returned, although `queue` was busy all that time: completion was not sent to `queue` asynchronously (a direct call, or `queue.sync`). Send it with `queue.async` or `notify(queue:)`, so that it runs after the call returns."
        }
        return nil
    }
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
/// Returns `false`, after recording a hang-kind failure, if the rounds do not finish within
/// `seconds`. The threads then skip the rounds left and are waited for a little longer, so that no
/// thread of this test goes on calling learner code (and maybe racing) while other tests run or
/// the process exits; only a callback that never returns keeps its thread.
@discardableResult
func releaseInPairs(
    _ pairs: [(() -> Void, () -> Void)], _ what: String, seconds: Double = 5,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    let callbacks = Unchecked(pairs)
    let barrier = SpinBarrier(parties: 2)
    let finished = DispatchSemaphore(value: 0)
    for thread in 0..<2 {
        startThread {
            for round in callbacks.value.indices where !barrier.stopped {
                barrier.arriveAndWait(round: round)
                let pair = callbacks.value[round]
                if thread == 0 { pair.0() } else { pair.1() }
            }
            finished.signal()
        }
    }
    let deadline = DispatchTime.now() + seconds
    for _ in 0..<2 where finished.wait(timeout: deadline) == .timedOut {
        barrier.stop()
        let later = DispatchTime.now() + 3
        for _ in 0..<2 where finished.wait(timeout: later) == .timedOut { break }
        recordTimeout(
            "\(what) — the 2 test threads did not finish within \(formatSeconds(seconds)); something the callbacks call blocks.",
            sourceLocation: sourceLocation)
        return false
    }
    return true
}

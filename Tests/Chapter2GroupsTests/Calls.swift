import Chapter2Groups
import Dispatch
import Foundation
import Synchronization
import Testing
import WorkbookTestSupport

// Chapter 2's bounded calls: every call a test makes into learner code goes through one of these,
// so that an answer that blocks its caller (a `group.wait()` inside a function that must return at
// once) fails its test with "Timed out:" instead of hanging the run.

/// Waits until `target.queue` has run every block scheduled on it so far — and every block that
/// those blocks scheduled on it in turn (a notify block submitted when the last of them left the
/// group) — at most `seconds`.
///
/// Used instead of `target.queue.sync {}`: learner code may be blocking the queue (a wait inside a
/// block running on it), and then the test must end, not hang.
@discardableResult
func settle(_ target: TestQueue, _ what: String, seconds: Double = 2, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    target.caughtUp(rounds: 2, seconds: seconds, sourceLocation: sourceLocation) {
        "\(what): the queue was still busy \($0) later. Something blocks it — a `wait()` inside a block running on that queue?"
    }
}

/// `runAll(functions, queue: target.queue, completion:)` on a thread of the test's own; `false`
/// (after a "Timed out:" failure) when it does not return within 2 s.
func callRunAll(
    _ functions: [FunctionWithCallback], on target: TestQueue, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    completion: @escaping Block
) -> Bool {
    let call = Unchecked((functions, completion))
    return bounded("runAll(\(what)), which must return at once and leave the waiting to the group,", sourceLocation: sourceLocation) {
        runAll(call.value.0, queue: target.queue, completion: call.value.1)
    } != nil
}

/// `fetchApplicationContext` on a thread of the test's own, bounded like ``callRunAll``.
func callFetch(
    _ friends: FriendService, _ steps: StepsService, on target: TestQueue, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    completion: @escaping (ApplicationContext) -> Void
) -> Bool {
    let call = Unchecked((friends, steps, completion))
    return bounded("fetchApplicationContext (\(what)), which must return at once and deliver later,", sourceLocation: sourceLocation) {
        fetchApplicationContext(friends: call.value.0, steps: call.value.1, queue: target.queue, completion: call.value.2)
    } != nil
}

/// `library.load(queue: target.queue, completion:)` on a thread of the test's own, bounded like ``callRunAll``.
func callLoad(
    _ library: VideoLibrary, on target: TestQueue, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    completion: @escaping ([URL]) -> Void
) -> Bool {
    let call = Unchecked((library, completion))
    return bounded("load (\(what)), which must return at once and deliver later,", sourceLocation: sourceLocation) {
        call.value.0.load(queue: target.queue, completion: call.value.1)
    } != nil
}

/// 2.1's and 2.3's call with nothing to wait for (`runAll([])`, a library of no sources): `call`
/// makes it, bounded (``callRunAll``, ``callLoad``), with the completion it is handed. That
/// completion must come at once — exactly once, on `target.queue`, and only after the call has
/// returned. Checks each, in the test's words: `notCalled` when it never came, `offQueue`,
/// `beforeReturn`; `alsoVerify` checks what it got, right after the count.
func expectCompletionAfterReturning<Got>(
    on target: TestQueue, notCalled: String, offQueue: String, beforeReturn: String,
    alsoVerify: ([Got]) -> Void = { _ in },
    sourceLocation: SourceLocation = #_sourceLocation,
    _ call: (_ completion: @escaping @Sendable (Got) -> Void) -> Bool
) {
    let returned = Tally<Bool>()
    let seen = Tally<(got: Got, onQueue: Bool, afterReturn: Bool)>(), arrived = Signal()

    // With the queue busy, a completion that the call schedules on it can only run once the test
    // lets the queue go on, after the call has returned.
    let busy = QueueHold([target.queue], seconds: 1)
    let called = call { got in
        seen.append((got, target.isCurrent, returned.count > 0))
        arrived.fire()
    }
    returned.append(true)
    busy.release()
    guard called else { return }
    guard arrived.wait(notCalled, sourceLocation: sourceLocation) else { return }
    settle(target, "after completion ran", sourceLocation: sourceLocation)
    verify(seen.count == 1, "completion must run exactly once; it ran \(seen.count) times", sourceLocation: sourceLocation)
    alsoVerify(seen.all.map(\.got))
    verify(seen.all.allSatisfy { $0.onQueue }, Comment(rawValue: offQueue), sourceLocation: sourceLocation)
    verify(seen.all.allSatisfy { $0.afterReturn }, Comment(rawValue: beforeReturn), sourceLocation: sourceLocation)
}

/// Calls a learner's callback (a service's answer, a source's report) on a thread of the test's
/// own, bounded like ``callRunAll``.
func answer(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: @escaping () -> Void) -> Bool {
    let call = Unchecked(body)
    return bounded(what, sourceLocation: sourceLocation) { call.value() } != nil
}

/// A flag one thread raises and another polls, without ordering anything else between them: the
/// Thread Sanitizer sees no synchronization in a relaxed atomic. Lets a test start work "after"
/// something happened while leaving the two threads unordered, as two unrelated callers would be.
final class UnorderedFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .relaxed) }

    /// Waits (spinning, at most `seconds`) until the flag is raised; `false` if it never was.
    func spin(seconds: Double = 2) -> Bool {
        spinWait(seconds: seconds) { raised.load(ordering: .relaxed) }
    }
}

// MARK: - Dimension helpers

/// Plain memory, one slot per writer, that the Thread Sanitizer watches: a writer marks its slot
/// (no lock, no atomic) just before it calls back, and the code the callback leads to reads every
/// slot. Those reads are race-free only if the learner's code orders every callback before them —
/// the happens-before edge a group's `leave()`/`notify` gives, and a `.relaxed` counter does not.
///
/// Never freed: a wrong answer that reads late must meet a race report, not freed memory.
final class PlainMarks: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Int>
    let count: Int

    init(_ count: Int) {
        self.count = count
        slots = .allocate(capacity: max(count, 1))
        slots.initialize(repeating: 0, count: max(count, 1))
    }

    /// Marks slot `index`, as plain memory.
    func mark(_ index: Int) { slots[index] = 1 }

    /// How many slots are not marked, read as plain memory.
    var unmarked: Int { (0..<count).reduce(0) { $0 + (slots[$1] == 0 ? 1 : 0) } }
}

/// Polls `condition` until it holds, at most `seconds` (cut short after a time-out of the suite:
/// ``AfterATimeOut``).
func eventually(seconds: Double = 2, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now() + AfterATimeOut.bound(seconds)
    while !condition() {
        if DispatchTime.now() > deadline { return false }
        usleep(200)
    }
    return true
}

/// Hands out 0, 1, 2… to threads without ordering them for the Thread Sanitizer (a relaxed
/// atomic), so that the test's own bookkeeping hides no race between the calls it hands out.
final class Ticket: Sendable {
    private let counter = Atomic<Int>(0)

    /// The next number.
    func take() -> Int { counter.add(1, ordering: .relaxed).oldValue }

    /// How many numbers were taken.
    var taken: Int { counter.load(ordering: .relaxed) }
}

/// Where 2.2's and 2.3's explored scenarios make their calls from.
enum ExploredCaller: String, CaseIterable, Sendable {
    case thread, globalQueue, mainQueue, theQueueItself

    var phrase: String {
        switch self {
        case .thread: "a thread of its own"
        case .globalQueue: "a block on a global queue"
        case .mainQueue: "a block on the main queue"
        case .theQueueItself: "a block on the queue it hands over"
        }
    }

    /// Runs `call` from here, without waiting; `handedQueue` is the queue the call hands over.
    func start(_ call: @escaping @Sendable () -> Void, handedQueue: DispatchQueue) {
        switch self {
        case .thread: startThread(call)
        case .globalQueue: DispatchQueue.global().async(execute: call)
        case .mainQueue: DispatchQueue.main.async(execute: call)
        case .theQueueItself: handedQueue.async(execute: call)
        }
    }
}

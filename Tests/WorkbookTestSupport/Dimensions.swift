import Dispatch
import Testing

// The generators behind each suite's dimension tests. An exercise's suite declares what varies —
// its operations by name, the queues and deadlines it takes — and a parameterized test runs the
// same clause for every value these generators give, so that an answer which only works for one
// kind of queue, one deadline or one pair of calls fails in the cell it got wrong. Which test
// covers which dimension is declared in the chapter's `chapter.json` (`dimensions`), and
// `workbook dimensions` prints the table.

/// The forms in which a caller hands a queue to learner code.
///
/// Code that keeps state "on" a queue it was handed, or waits on it, works only if the queue is
/// serial and idle; a caller may hand in a concurrent queue, or the very queue it is running on.
package enum HandedQueue: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A private serial queue the test owns; the call is made from a test thread.
    case serial
    /// A concurrent queue the test owns; the call is made from a test thread.
    case concurrent
    /// A serial queue, and the call is made from a block running on it — as code on the main
    /// queue hands `.main` to an API.
    case callers

    package var testDescription: String {
        switch self {
        case .serial: "a serial queue"
        case .concurrent: "a concurrent queue"
        case .callers: "the caller's own queue"
        }
    }

    /// A new queue of this form.
    package func make(label: String = "workbook.handed-queue") -> QueueProbe {
        QueueProbe(label: label, concurrent: self == .concurrent, callFromIt: self == .callers)
    }
}

/// A queue handed to learner code, which tells whether code runs on it and makes calls as its
/// ``HandedQueue`` form says.
package final class QueueProbe: Sendable {
    package let queue: DispatchQueue
    private let key = DispatchSpecificKey<Int>()
    private let callFromIt: Bool
    /// `true` for a serial queue (the main queue included): while a block runs on it, nothing
    /// else sent there can start.
    package let isSerial: Bool

    init(label: String, concurrent: Bool, callFromIt: Bool) {
        queue = DispatchQueue(label: label, attributes: concurrent ? [.concurrent] : [])
        self.callFromIt = callFromIt
        isSerial = !concurrent
        queue.setSpecific(key: key, value: 1)
    }

    private init(main callFromIt: Bool) {
        queue = .main
        self.callFromIt = callFromIt
        isSerial = true
        queue.setSpecific(key: key, value: 1)
    }

    /// The main queue, handed over; the call is made from a block on it (`callFromIt`), as UI code
    /// hands `.main` to an API, or from the calling thread. (In a test child the main queue is
    /// drained by a thread of the pool on Linux, by the main thread's run loop under `swift test` on
    /// macOS — read in libdispatch's `dispatch_main` and the Swift runtime's
    /// `swift_task_asyncMainDrainQueue`; on both, blocks sent to it run while a test thread waits.)
    package static func main(callFromIt: Bool) -> QueueProbe { QueueProbe(main: callFromIt) }

    /// `true` when called from a block running on ``queue``.
    package var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }

    /// Makes `call` as this form's caller would: from the calling thread, or from a block on
    /// ``queue`` for ``HandedQueue/callers``. Returns whether `call` returned within `seconds`
    /// (`false`: it blocked its caller — for the caller's own queue, a wait for something only that
    /// queue could do).
    package func call(within seconds: Double = 2, _ call: @escaping @Sendable () -> Void) -> Bool {
        guard callFromIt else { return finishes(within: seconds, call) }
        let returned = Signal()
        queue.async {
            call()
            returned.fire()
        }
        return returned.happens(within: seconds)
    }

    /// Waits, at most `seconds`, until the queue has run every block scheduled on it so far and
    /// what those scheduled on it in turn (a barrier on a concurrent queue); `false` when it was
    /// still busy. Afterwards, what those blocks did is ordered before the caller's next steps, for
    /// the Thread Sanitizer too.
    package func drained(seconds: Double = 2) -> Bool {
        let queue = self.queue
        return finishes(within: seconds) {
            queue.sync(flags: .barrier) {}
            queue.sync(flags: .barrier) {}
        }
    }
}

/// The edge cases of a deadline parameter.
package enum DeadlineEdge: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A deadline that has already passed.
    case past
    /// `.now()`: passed by the time it is looked at.
    case now
    /// A short time ahead (0.1 s).
    case soon
    /// Far ahead (one hour).
    case far
    /// `.distantFuture`: never.
    case distantFuture

    package var testDescription: String {
        switch self {
        case .past: "a deadline already past"
        case .now: "the deadline .now()"
        case .soon: "a deadline 0.1 s ahead"
        case .far: "a deadline an hour ahead"
        case .distantFuture: "the deadline .distantFuture"
        }
    }

    /// The deadline, taken now.
    package var time: DispatchTime {
        let now = DispatchTime.now()
        switch self {
        // One second back from now, or the clock's start if it has not run that long.
        case .past: return DispatchTime(uptimeNanoseconds: max(now.uptimeNanoseconds, 1_000_000_001) - 1_000_000_000)
        case .now: return now
        case .soon: return now + 0.1
        case .far: return now + 3_600
        case .distantFuture: return .distantFuture
        }
    }

    /// Whether a wait with this deadline on something that never opens ends within a test's bound.
    package var expires: Bool { self == .past || self == .now || self == .soon }
}

/// Two of an exercise's operations, named as its suite names them.
package struct OperationPair: Sendable, Hashable, CustomTestStringConvertible {
    package let first: String
    package let second: String

    package var testDescription: String { first == second ? "\(first) × itself" : "\(first) × \(second)" }

    /// Every unordered pair of `operations`, each operation paired with itself too: what must be
    /// safe to call at the same moment.
    package static func every(of operations: [String]) -> [OperationPair] {
        operations.indices.flatMap { index in
            operations[index...].map { OperationPair(first: operations[index], second: $0) }
        }
    }
}

/// Runs the two operations of a pair at the same moment, each on `threads` gated threads,
/// `iterations` times: `body(name, thread, iteration)` is called with the operation to make.
/// Returns `false`, after recording a hang-kind failure, when they do not all end within `seconds`.
@discardableResult
package func overlap(
    _ pair: OperationPair, threads: Int = 2, iterations: Int = 200, seconds: Double = 5,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable (_ operation: String, _ thread: Int, _ iteration: Int) -> Void
) -> Bool {
    runConcurrently(threads: threads * 2, iterations: iterations, "\(pair.testDescription) at the same moment",
                    seconds: seconds, sourceLocation: sourceLocation) { thread, iteration in
        body(thread.isMultiple(of: 2) ? pair.first : pair.second, thread / 2, iteration)
    }
}

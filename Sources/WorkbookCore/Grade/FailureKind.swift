import WorkbookWire

/// Why an exercise failed, in the words the lessons use.
package enum FailureKind: String, Codable, Sendable, CaseIterable, Comparable {
    /// The chapter did not compile.
    case compile
    /// The test process crashed or trapped (or an exit test saw its child crash).
    case crash
    /// Something never finished: a bounded wait ran out, or the watchdog had to stop a test. A wait
    /// nobody signals, a completion never sent, a caller blocked behind work that needs it — or a
    /// true deadlock, two waits each waiting for the other. The grader sees only that time ran out,
    /// so it does not claim more than that. (A `sync` onto the queue already running is no hang:
    /// libdispatch traps on it, a crash.)
    case hang
    /// The Thread Sanitizer reported a data race in the exercise's file.
    case race
    /// A test's expectation failed.
    case wrong

    /// Lower ranks win when one exercise fails in several ways: the kind a learner must deal with
    /// first. A race comes right after compiling because it can cause all the others — a lost update
    /// leaves a count that never reaches zero (a hang), or a wrong result, or a crash.
    var rank: Int {
        switch self {
        case .compile: 0
        case .race: 1
        case .crash: 2
        case .hang: 3
        case .wrong: 4
        }
    }

    package static func < (lhs: FailureKind, rhs: FailureKind) -> Bool { lhs.rank < rhs.rank }

    /// A short label for tables and summaries.
    package var label: String {
        switch self {
        case .compile: "does not compile"
        case .crash: "crash"
        case .hang: "never finished"
        case .race: "data race"
        case .wrong: "wrong result"
        }
    }
}

extension FailureMarker {
    /// The kind of failure an issue opening with this marker stands for.
    var kind: FailureKind {
        switch self {
        case .crashed: .crash
        case .timedOut: .hang
        case .race: .race
        }
    }
}

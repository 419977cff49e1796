import Foundation
import Testing

// Helpers for tests whose code may trap or hang: they run it in the child process of an exit test,
//
//     let result = await #expect(processExitsWith: .failure, observing: […]) { runInChild { … } }
//     judgeChild(result, "doing this", ifItCrashed: "the likely cause")
//
// so that a trap in learner code fails one test instead of ending the whole test run.

/// The exit status of a process in which the Thread Sanitizer reported something (its `exitcode`
/// option, 66 by default).
let tsanFoundARace: Int32 = 66

/// Exit codes with which a child process tells its parent how it ended.
///
/// None of them is 0: the exit tests expect `.failure`, which matches every ending except exit
/// code 0 — a trap, a hang, a wrong result and a pass alike — so that `#expect` always hands the
/// result back, and ``judgeChild(_:_:ifItCrashed:sourceLocation:)`` alone decides what it means.
/// (`#expect(processExitsWith: .success)` returns `nil` when the child crashes, and says only
/// "Expectation failed".)
public enum ChildExit {
    /// The work finished and its result was right.
    public static let passed: Int32 = 40
    /// The work finished, but its result was wrong; standard output says how.
    public static let wrong: Int32 = 41
    /// The work did not finish within its bound.
    public static let hung: Int32 = 42
}

/// Runs `work` on a new thread of the child process and waits for it, at most `seconds`.
///
/// Call it as the whole body of an exit test. `work` returns `nil` when all is well, or a sentence
/// saying what is wrong. The child then ends with ``ChildExit/passed`` or ``ChildExit/wrong``; a
/// hang ends it with ``ChildExit/hung`` (an exit test has no time limit of its own), and a trap
/// with its signal.
public func runInChild(seconds: Double = 2, _ work: @escaping @Sendable () -> String?) -> Never {
    let problems = Tally<String>()
    let finished = Signal()
    startThread {
        if let problem = work() { problems.append(problem) }
        finished.fire()
    }
    guard finished.happens(within: seconds) else {
        leaveChild(ChildExit.hung, "did not finish within \(seconds) s")
    }
    if let problem = problems.all.first { leaveChild(ChildExit.wrong, problem) }
    leaveChild(ChildExit.passed, "")
}

/// Ends the child at once with `code`, after writing `message` to standard output for the parent.
private func leaveChild(_ code: Int32, _ message: String) -> Never {
    FileHandle.standardOutput.write(Data(message.utf8))
    // `_exit`, not `exit`: a thread may still be stuck in the learner's code.
    _exit(code)
}

/// Turns the way an exit test's child ended into the failure a learner should read.
///
/// - Parameters:
///   - what: what the child did, as a phrase ("recording 7 events into a log of capacity 3").
///   - ifItCrashed: the likely cause of a trap, and where to look.
public func judgeChild(
    _ result: ExitTest.Result?, _ what: String, ifItCrashed: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    // `nil`: the exit test could not run at all, and `#expect` has already said why.
    guard let result else { return }
    let said = String(decoding: result.standardOutputContent, as: UTF8.self)
    let trapLine = String(decoding: result.standardErrorContent, as: UTF8.self)
        .split(separator: "\n").last { $0.contains("dispatch") || $0.contains("Fatal error") }
        .map { " The child said: \"\($0)\"." } ?? ""
    switch result.exitStatus {
    case .exitCode(ChildExit.passed):
        return
    case .exitCode(ChildExit.wrong):
        Issue.record(Comment(rawValue: "\(what): \(said)"), sourceLocation: sourceLocation)
    case .exitCode(ChildExit.hung):
        recordTimeout(
            "\(what) did not finish within its bound — something waits for itself: a `sync` onto a "
                + "queue that is busy running the caller, or a wait nobody signals.",
            sourceLocation: sourceLocation)
    case .exitCode(tsanFoundARace):
        // The child ran under the Thread Sanitizer, which exits with 66 when it reported anything.
        let summary = String(decoding: result.standardErrorContent, as: UTF8.self)
            .split(separator: "\n").first { $0.hasPrefix("SUMMARY: ThreadSanitizer") }
            .map { " (\($0))" } ?? ""
        if ProcessInfo.processInfo.environment[graderVariable] == nil {
            Issue.record(Comment(rawValue: "\(FailureMarker.race) the Thread Sanitizer reported a data race while \(what)\(summary)."),
                         sourceLocation: sourceLocation)
        }
    case .signal(let signal):
        let trap = signal == SIGILL || signal == SIGTRAP ? ", a trap" : ""
        recordCrash("\(what) crashed (signal \(signal)\(trap)).\(trapLine) \(ifItCrashed)", sourceLocation: sourceLocation)
    case .exitCode(let code):
        recordCrash("\(what) ended the process with exit code \(code).\(trapLine) \(ifItCrashed)", sourceLocation: sourceLocation)
    @unknown default:
        recordCrash("\(what) ended the process (\(result.exitStatus)).\(trapLine) \(ifItCrashed)", sourceLocation: sourceLocation)
    }
}

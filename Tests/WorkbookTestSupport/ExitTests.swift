import Foundation
import Testing
import WorkbookSanitizerReports
import WorkbookWire

// Helpers for tests whose code may trap or hang: they run it in the child process of an exit test,
//
//     let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
//         runInChild(cutShort: cutShort) { … }
//     }
//     judgeChild(result, "doing this", ifItCrashed: "the likely cause")
//
// so that a trap in learner code fails one test instead of ending the whole test run.
//
// Why every exit test still spells out those first two lines and the last, instead of calling one
// helper that does it all: the exit test's body must be a closure literal written inside the
// `#expect(processExitsWith:)` call itself. The macro turns that literal into the entry point the
// child process runs (found again by where the call stands), so the body cannot be a closure
// handed over from elsewhere, and it captures nothing but the values in its capture list (each
// `Codable`, sent to the child): a helper that took the work as a parameter and called `#expect`
// would have one body, in the helper, for every test. So each test writes the `#expect` line with
// its capture list, calls ``runInChild(seconds:cutShort:_:)`` as the whole body, and hands the
// result to ``judgeChild(_:_:ifItCrashed:ifItHung:sourceLocation:)``; what does not vary — what the
// parent observes, and why it expects `.failure` — is here, once. Where the body is the same for
// many tests and only values differ, one helper does hold the exit test, and the values travel in
// its capture list: every explored test (``ExploredContract/explore(sourceLocation:)``), and
// chapter 5's completion dimensions.

/// What every exit test observes of its child: its standard output (the sentence its work returned)
/// and its standard error (a race report, a trap's message, the scenario it was running).
package let childOutput: [any PartialKeyPath<ExitTest.Result> & Sendable] = [\.standardOutputContent, \.standardErrorContent]

/// Why every exit test expects `.failure`: see ``ChildExit``.
package let childEnds: Comment = "the child ends with a code runInChild chose, or with a signal"

/// Exit codes with which a child process tells its parent how it ended.
///
/// None of them is 0: the exit tests expect `.failure`, which matches every ending except exit
/// code 0 — a trap, a hang, a wrong result and a pass alike — so that `#expect` always hands the
/// result back, and ``judgeChild(_:_:ifItCrashed:sourceLocation:)`` alone decides what it means.
/// (`#expect(processExitsWith: .success)` returns `nil` when the child crashes, and says only
/// "Expectation failed".)
package enum ChildExit {
    /// The work finished and its result was right.
    package static let passed: Int32 = 40
    /// The work finished, but its result was wrong; standard output says how.
    package static let wrong: Int32 = 41
    /// The work did not finish within its bound.
    package static let hung: Int32 = 42
    /// Seconds past its own bound after which the kernel ends a child that did not end itself.
    package static let lastBoundMargin: UInt32 = 10
}

/// Runs `work` on a new thread of the child process and waits for it, at most `seconds` — or at
/// most ``AfterATimeOut/shortBound`` from when the parent's suite has timed out (`cutShort`).
///
/// Call it as the whole body of an exit test, with the parent's ``AfterATimeOut/forChild`` in the
/// capture list:
///
///     ) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
///         runInChild(seconds: 4, cutShort: cutShort) { … }
///     }
///
/// `work` returns `nil` when all is well, or a sentence saying what is wrong. The child then ends
/// with ``ChildExit/passed`` or ``ChildExit/wrong``; a hang ends it with ``ChildExit/hung`` (an exit
/// test has no time limit of its own), and a trap with its signal.
package func runInChild(seconds: Double = 2, cutShort: ChildCutShort, _ work: @escaping @Sendable () -> String?) -> Never {
    // A last bound the kernel keeps, should the child not end by itself: SIGALRM's default action
    // ends the process whatever its threads hold. Seen (Linux x86-64, 2 cores, 4.3's explored test
    // over a write on a global queue, 3 of 4 runs of plain `swift test`): a dictionary read crashed
    // while the dictionary was being written, TSan's report of that signal waited for a lock held by
    // a thread reporting the race, which waited for the report lock the first held — and `_exit`,
    // which first takes that report lock too, never returned. Without this bound the whole run hung.
    alarm(UInt32(seconds.rounded(.up)) + ChildExit.lastBoundMargin)
    let problems = Tally<String>()
    let finished = Signal()
    startThread {
        if let problem = work() { problems.append(problem) }
        finished.fire()
    }
    // Looks for the parent's mark between short waits: a time-out of the suite ends this child soon.
    if let waited = AfterATimeOut.wait(upTo: seconds, timedOut: { cutShort.hasTimedOut }, until: finished.happens(within:)) {
        leaveChild(ChildExit.hung, "did not finish within \(formatSeconds(waited))")
    }
    if let problem = problems.all.first { leaveChild(ChildExit.wrong, problem) }
    leaveChild(ChildExit.passed, "")
}

/// The sentence a child's work returns when one of its own bounded waits ran out:
/// ``judgeChild(_:_:ifItCrashed:ifItHung:sourceLocation:)`` records it as a timeout (a hang), not
/// as a wrong result.
package func childTimedOut(_ sentence: String) -> String { "\(FailureMarker.timedOut) \(sentence)" }

/// Whether a child's sentence is one made by ``childTimedOut(_:)``.
package func isChildTimeout(_ sentence: String) -> Bool { sentence.hasPrefix(FailureMarker.timedOut.text) }

/// Ends the child at once with `code`, after writing `message` to standard output for the parent.
func leaveChild(_ code: Int32, _ message: String) -> Never {
    FileHandle.standardOutput.write(Data(message.utf8))
    // `_exit`, not `exit`: a thread may still be stuck in the learner's code.
    _exit(code)
}

/// Turns the way an exit test's child ended into the failure a learner should read.
///
/// A race comes first: the child's exit status does not show it. ``runInChild(seconds:_:)`` ends
/// the child with `_exit`, and its status stays the child's own (measured on Linux x86-64, Swift
/// 6.3.1: 40 after a report, not TSan's 66), so the report is read from the child's standard error.
/// Under `workbook check` the reports go to files instead, which the grader reads with the learner's
/// file and line.
///
/// - Parameters:
///   - what: what the child did, as a phrase ("recording 7 events into a log of capacity 3").
///   - ifItCrashed: the likely cause of a trap, and where to look.
///   - ifItHung: what a child that did not finish most likely did, when the test knows better than
///     the general sentence.
package func judgeChild(
    _ result: ExitTest.Result?, _ what: String, ifItCrashed: String, ifItHung: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    // `nil`: the exit test could not run at all, and `#expect` has already said why.
    guard let result else { return }
    let said = String(decoding: result.standardOutputContent, as: UTF8.self)
    if ProcessInfo.processInfo.environment[GraderEnvironment.grading] == nil,
       let report = raceReport(in: result.standardErrorContent) {
        // A child that also ran out of time counts as a time-out of this suite, although the race
        // is what it reports: the suite's later waits are cut short as after any other time-out.
        // (Every other ending that ran out of time is recorded by `recordTimeout` below.)
        if result.exitStatus == .exitCode(ChildExit.hung) || isChildTimeout(said) { _ = AfterATimeOut.record() }
        recordIssue(Comment(rawValue: """
            \(FailureMarker.race) the Thread Sanitizer reported a data race while \(what): two threads \
            touched the same memory with nothing ordering the two accesses. The first frame of each \
            access ("#0") names a line of your exercise file; `swift run workbook check` says it in \
            plain words.
            \(report)
            """), sourceLocation: sourceLocation)
        return
    }
    if String(decoding: result.standardErrorContent, as: UTF8.self).contains(ChildSanitizer.loadedTooLate) {
        recordIssue(Comment(rawValue: ChildSanitizer.childLoadedTooLate(what)), sourceLocation: sourceLocation)
        return
    }
    let trapLine = (String(decoding: result.standardErrorContent, as: UTF8.self)
        .split(separator: "\n").last { ($0.contains("dispatch") || $0.contains("Fatal error")) && !$0.hasPrefix(scenarioLinePrefix) }
        .map { " The child said: \"\($0)\"." } ?? "")
        // An explored test ended by a trap or a hang: the scenario it was running.
        + (lastScenario(in: result.standardErrorContent).map { " It happened in this scenario: \($0)." } ?? "")
    switch result.exitStatus {
    case .exitCode(ChildExit.passed):
        return
    case .exitCode(ChildExit.wrong) where said.hasPrefix(FailureMarker.timedOut.text):
        // A sentence made with `childTimedOut(_:)`: a bounded wait inside the child ran out.
        recordTimeout("\(what): \(said.dropFirst(FailureMarker.timedOut.text.count).drop { $0 == " " })", sourceLocation: sourceLocation)
    case .exitCode(ChildExit.wrong):
        recordIssue(Comment(rawValue: "\(what): \(said)"), sourceLocation: sourceLocation)
    case .exitCode(ChildExit.hung):
        recordTimeout(
            "\(what) did not finish within its bound — "
                + (ifItHung ?? "something waits for itself: a `sync` onto a queue that is busy running the caller, or a wait nobody signals.")
                + (lastScenario(in: result.standardErrorContent).map { " It was running this scenario: \($0)." } ?? ""),
            sourceLocation: sourceLocation)
    case .signal(SIGALRM) where String(decoding: result.standardErrorContent, as: UTF8.self).contains("ThreadSanitizer:DEADLYSIGNAL"):
        // The code crashed (a deadly signal) and the sanitizer's report of it never finished.
        recordCrash("\(what) crashed: the Thread Sanitizer began to report a deadly signal (a crash, often memory touched by two threads at once) and could not finish, so the system ended the process.\(trapLine) What in your type can two threads touch at the same moment?",
                    sourceLocation: sourceLocation)
    case .signal(SIGALRM):
        recordTimeout(
            "\(what) did not end, even \(ChildExit.lastBoundMargin) s after its bound, and the system ended it — "
                + (ifItHung ?? "something waits for itself: a `sync` onto a queue that is busy running the caller, or a wait nobody signals.")
                + (lastScenario(in: result.standardErrorContent).map { " It was running this scenario: \($0)." } ?? ""),
            sourceLocation: sourceLocation)
    case .signal(let signal):
        let trap = signal == SIGILL || signal == SIGTRAP ? ", a trap" : ""
        recordCrash("\(what) crashed (signal \(signal)\(trap)).\(trapLine) \(ifItCrashed)", sourceLocation: sourceLocation)
    case .exitCode(let code):
        recordCrash("\(what) ended the process with exit code \(code).\(trapLine) \(ifItCrashed)", sourceLocation: sourceLocation)
    @unknown default:
        recordCrash("\(what) ended the process (\(result.exitStatus)).\(trapLine) \(ifItCrashed)", sourceLocation: sourceLocation)
    }
}

/// The gist of the first Thread Sanitizer report in a child's standard error: its title, each
/// access with its first frame, and the summary; `nil` when there is none.
func raceReport(in standardError: [UInt8]) -> String? {
    let lines = String(decoding: standardError, as: UTF8.self).split(separator: "\n").map(String.init)
    guard let start = lines.firstIndex(where: { $0.contains("WARNING: ThreadSanitizer:") }) else { return nil }
    var kept = [lines[start]]
    var index = start + 1
    while index < lines.count, !lines[index].hasPrefix("SUMMARY:") {
        let access = lines[index].trimmingCharacters(in: .whitespaces)
        // "Write of size 8 at 0x… by thread T3:" (or, for a Swift access race, "Modifying access of
        // Swift variable at 0x… by thread T3:"), then its first frame "#0 …".
        if access.hasSuffix(":"), access.contains(" of size ") || access.contains(" access of Swift variable at "), !access.hasPrefix("Location") {
            kept.append(lines[index])
            if index + 1 < lines.count, lines[index + 1].trimmingCharacters(in: .whitespaces).hasPrefix("#0 ") {
                kept.append(lines[index + 1]
                    .replacingOccurrences(of: #" \((?:[^()]*PackageTests|WorkbookSuites)[^)]*\)"#, with: "", options: .regularExpression)
                    .replacingOccurrences(of: #" \(BuildId: [0-9a-f]+\)"#, with: "", options: .regularExpression))
            }
        }
        index += 1
    }
    if index < lines.count { kept.append(lines[index]) }
    return kept.joined(separator: "\n")
}

/// Makes exit-test children start with TSan as this process runs it, and end at once;
/// ``GradedUnderTSan`` evaluates it before the first test.
///
/// Children inherit this process's environment as it is when each exit test starts (see
/// `ChildSanitizer`), so setting it here reaches every child started afterwards: no second of
/// TSan's exit sleep in each (so under plain `swift test` every exit test cost a second more), and on
/// macOS the runtime's dylib inserted into each child at its launch, as `swift test --sanitize=thread`
/// inserted it into this one. (`workbook check` sets the same itself.)
let quickChildExits: Void = {
    let runtime = workbook_thread_sanitizer_runtime_path().map { String(cString: $0) }
    for (name, value) in ChildSanitizer.childEnvironment(ProcessInfo.processInfo.environment, runtimePath: runtime) {
        setenv(name, value, 1)
    }
}()

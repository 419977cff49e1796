import Dispatch
import Foundation
import Testing
import WorkbookTestSupport

// Every test of this chapter calls the learner's code inside an exit test's child process
// (`runInChild`): a wrong answer here easily `sync`s onto the queue it is already running on, and
// libdispatch then traps — on Linux with no message — which would end the whole test run. In a
// child, the trap fails one test ("Crashed:"), a hang fails it as "Timed out:", a race makes the
// child exit 66 ("Data race:" under plain `swift test`; `workbook check` reads the report itself),
// and every other test still runs. (Chapter-specific helpers; WorkbookTestSupport has the rest.)

/// Makes exit-test children end at once.
///
/// At exit, the Thread Sanitizer sleeps `atexit_sleep_ms` (1 s unless set) in any process with more
/// than one thread — so under plain `swift test` every passing child cost a second. Children are
/// spawned with this process's environment, so adding the option here speeds up every child started
/// afterwards. (`workbook check` already sets it.) Touch it at the start of each test, before the
/// `#expect(processExitsWith:)`: `_ = quickChildExits`.
let quickChildExits: Bool = {
    let options = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] ?? ""
    if !options.contains("atexit_sleep_ms") {
        setenv("TSAN_OPTIONS", options.isEmpty ? "atexit_sleep_ms=0" : options + " atexit_sleep_ms=0", 1)
    }
    return true
}()

/// The `DispatchQueue` stored in `object`'s property called `queue`, if it has one.
///
/// The exercises hand their types a queue (`let queue` / `private let queue`); a few contract clauses
/// are about that queue — "a read made while another block runs on `queue` waits for it", "reads run
/// side by side on `queue`" — and only a block the test itself puts on the queue can observe them.
/// Read it before any other thread touches the object.
func queueProperty(of object: AnyObject) -> DispatchQueue? {
    Mirror(reflecting: object).children.first { $0.label == "queue" }?.value as? DispatchQueue
}

/// Occupies `queue` from a thread of the test: a plain `queue.sync` block that stays until
/// `release` fires (at most `seconds`). Returns `false` if the block did not start within 2 s.
func occupy(_ queue: DispatchQueue, until release: Signal, seconds: Double = 3) -> Bool {
    let holding = Signal()
    startThread {
        queue.sync {
            holding.fire()
            _ = release.happens(within: seconds)
        }
    }
    return holding.happens(within: 2)
}

/// ``judgeChild(_:_:ifItCrashed:sourceLocation:)``, with a specific sentence for a child that hung,
/// and a race reported even when the child exited with its own code.
///
/// `runInChild` ends the child with `_exit`, and that exit status stays the child's own (measured:
/// 40 after a report) — the sanitizer does not turn it into 66. So a race in a child would pass
/// unnoticed under plain `swift test`. The report itself is in the child's standard error; this
/// turns it into a "Data race:" failure of the test. (Under `workbook check` the reports go to files,
/// which the grader reads with the learner's file and line, and standard error holds none.)
func judge(
    _ result: ExitTest.Result?, _ what: String, ifItCrashed: String, ifItHung: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    if let result, ProcessInfo.processInfo.environment["WORKBOOK_GRADER"] == nil,
       let report = raceReport(in: result.standardErrorContent) {
        Issue.record(Comment(rawValue: "\(FailureMarker.race) the Thread Sanitizer reported a data race while this test ran (\(what.prefix(1).lowercased() + what.dropFirst())): two threads touched the same memory with nothing ordering them. The first frames of each access (\"#0\") name the lines of your exercise file; `swift run workbook check` says it in plain words.\n\(report)"),
                     sourceLocation: sourceLocation)
        return
    }
    if let result, let ifItHung, case .exitCode(ChildExit.hung) = result.exitStatus {
        recordTimeout("\(what) did not finish within its bound. \(ifItHung)", sourceLocation: sourceLocation)
        return
    }
    judgeChild(result, what, ifItCrashed: ifItCrashed, sourceLocation: sourceLocation)
}

/// The gist of the first Thread Sanitizer report in a child's standard error: its title, each
/// access with its first frame, and the summary; `nil` when there is none.
func raceReport(in standardError: [UInt8]) -> String? {
    let text = String(decoding: standardError, as: UTF8.self)
    guard text.contains("WARNING: ThreadSanitizer:") else { return nil }
    let lines = text.split(separator: "\n").map(String.init)
    guard let start = lines.firstIndex(where: { $0.contains("WARNING: ThreadSanitizer:") }) else { return nil }
    var kept: [String] = [lines[start]]
    var index = start + 1
    while index < lines.count, !lines[index].hasPrefix("SUMMARY:") {
        let line = lines[index]
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix(":") && trimmed.contains(" of size ") && !trimmed.hasPrefix("Location") {
            kept.append(line)
            if index + 1 < lines.count, lines[index + 1].trimmingCharacters(in: .whitespaces).hasPrefix("#0 ") {
                kept.append(lines[index + 1].replacingOccurrences(of: #" \(DispatchWorkbookPackageTests[^)]*\)"#, with: "", options: .regularExpression)
                    .replacingOccurrences(of: #" \(BuildId: [0-9a-f]+\)"#, with: "", options: .regularExpression))
            }
        }
        index += 1
    }
    if index < lines.count { kept.append(lines[index]) }
    return kept.joined(separator: "\n")
}

/// `true` when the two threads are the same.
func sameThread(_ a: pthread_t, _ b: pthread_t) -> Bool { pthread_equal(a, b) != 0 }

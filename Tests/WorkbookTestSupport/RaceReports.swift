import Foundation
import Testing
import WorkbookSanitizerReports
import WorkbookWire

// Plain `swift test` should not look like a pass when the Thread Sanitizer found a race: TSan prints
// its report and makes the process exit with 66 at the end, yet every test says "passed". So, under
// plain `swift test`, the ``gradedUnderTSan`` trait sends TSan's reports to a file of this process
// (`__sanitizer_set_report_path`, the sanitizers' public interface), prints what a test added to it
// once the test is over, and fails a test during which a report was written.
//
// Why a file and not TSan's `__tsan_on_report` hook: the hook is called from inside TSan's reporting
// path, with TSan's locks held, and anything it runs that TSan intercepts or that can wait (a lazily
// initialised Swift global is a `swift_once`) can deadlock the process — measured: plain `swift test`
// of 1.1's starter never ended in 3 of 10 runs (Linux, Swift 6.3.1). And on Darwin a hook defined in
// a test bundle loaded after the runtime is not the one the runtime calls (two-level namespace). The
// file is read only here, between tests, by the test runner's own code.

/// TSan's report file of this process, and how much of it earlier tests have read.
final class SanitizerReportFile: @unchecked Sendable {
    /// The file prefix TSan writes to; the file itself is `<prefix>.<pid>`.
    let prefix: String
    /// How far earlier calls have read, behind an `NSLock` (TSan sees it whole; `Mutex` only in part).
    private let lock = NSLock()
    private var offset: UInt64 = 0

    /// Sends TSan's reports to a fresh folder of the temporary directory.
    init() {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("workbook-tsan-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        prefix = folder.appendingPathComponent("report").path
        workbook_send_sanitizer_reports_to(prefix)
    }

    /// What TSan wrote since the last call.
    func newText() -> String {
        lock.withLock {
            guard let handle = FileHandle(forReadingAtPath: "\(prefix).\(getpid())") else { return "" }
            defer { try? handle.close() }
            try? handle.seek(toOffset: offset)
            let data = (try? handle.readToEnd()) ?? Data()
            offset += UInt64(data.count)
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// Reads what TSan wrote since the last call, shows it on standard error as TSan would have,
    /// and returns how many reports it holds.
    func passOn() -> Int {
        let text = newText()
        guard !text.isEmpty else { return 0 }
        FileHandle.standardError.write(Data(text.utf8))
        return text.components(separatedBy: reportHeader).count - 1
    }

    /// Set up when the first graded test starts, and only under plain `swift test`: `workbook
    /// check` reads TSan's reports itself (it sets `WORKBOOK_GRADER` and TSan's `log_path`).
    static let shared: SanitizerReportFile? =
        ProcessInfo.processInfo.environment[GraderEnvironment.grading] == nil ? SanitizerReportFile() : nil
}

/// The line every TSan report opens with.
let reportHeader = "WARNING: ThreadSanitizer:"

/// Runs each test case on threads of its own (``ThreadPerJob``), and, under plain `swift test`, runs
/// the tests of a suite one at a time and fails a test during which the Thread Sanitizer reported a
/// data race.
///
/// One at a time, because a report names no test: only when tests do not overlap does a report made
/// during a test belong to it. (Exit tests run in child processes, whose reports ``judgeChild(_:_:ifItCrashed:sourceLocation:)``
/// reads from their standard error.) `workbook check` reads TSan's reports itself, with the learner's
/// file and line, and sets `WORKBOOK_GRADER` so that the same race is not counted twice; there the
/// tests run side by side, as many at once as it says (``TestsAtOnce``), since it places a report
/// by the learner's lines, not by when it came.
package struct GradedUnderTSan: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func scopeProvider(for test: Test, testCase: Test.Case?) -> GradedUnderTSan? {
        testCase == nil ? nil : self
    }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let reports = SanitizerReportFile.shared
        let alone = test.traits.contains { $0 is RunsAlone }
        await TestsAtOnce.shared.acquire(alone: alone)
        quickChildExits
        WithoutTheSanitizer.sayOnce(for: test)
        ExerciseSummary.shared.ran(test)
        // A report that arrived between tests is shown, and belongs to no test.
        _ = reports?.passOn()
        do {
            try await withTaskExecutorPreference(ThreadPerJob.shared) { try await function() }
        } catch {
            _ = reports?.passOn()
            await TestsAtOnce.shared.release(alone: alone)
            throw error
        }
        let count = reports?.passOn() ?? 0
        await TestsAtOnce.shared.release(alone: alone)
        guard count > 0 else { return }
        recordIssue(Comment(rawValue: """
            \(FailureMarker.race) the Thread Sanitizer reported \(count == 1 ? "a data race" : "\(count) data races") \
            while this test ran — see the report printed above ("WARNING: ThreadSanitizer: …"): its frames \
            in your exercise file name the two lines that touch the same memory with nothing ordering them. \
            `swift run workbook check` says it in plain words. (Two lines inside the `withLock` of one and \
            the same `Mutex` are the one case TSan cannot judge on Linux — it sees only part of what orders a \
            `Mutex` — and `workbook check` tells that case apart; an `NSLock`, or two different locks, it judges.)
            """), sourceLocation: test.sourceLocation)
    }
}

extension Trait where Self == GradedUnderTSan {
    /// One test at a time, and a report of the Thread Sanitizer fails the test it happened in.
    package static var gradedUnderTSan: GradedUnderTSan { GradedUnderTSan() }
}

/// What the suites say when the Thread Sanitizer is not in the test process: on macOS, a plain
/// `swift test` (the tests are a bundle, and TSan there works only when inserted at the runner's
/// launch — `swift test --sanitize=thread` does that; see Package.swift). The tests still run and
/// still judge results, hangs and crashes; a race would pass unseen, so each suite fails once and
/// says how to grade races.
enum WithoutTheSanitizer {
    static let loaded = workbook_thread_sanitizer_is_loaded() != 0

    /// Records the sentence in the first test case of each suite to run, when TSan is absent.
    static func sayOnce(for test: Test) {
        guard !loaded else { return }
        let suite = ([test.id.moduleName] + test.id.nameComponents.dropLast()).joined(separator: ".")
        guard told.insert(suite) else { return }
        recordIssue(Comment(rawValue: SanitizerAbsent.sentence(testModule: test.id.moduleName)), sourceLocation: test.sourceLocation)
    }

    private static let told = Told()

    private final class Told: @unchecked Sendable {
        private let lock = NSLock()
        private var suites: Set<String> = []
        func insert(_ suite: String) -> Bool { lock.withLock { suites.insert(suite).inserted } }
    }
}

import Foundation
import Synchronization
import Testing
import WorkbookWire

// Plain `swift test` should not look like a pass when the Thread Sanitizer found a race: TSan prints
// its report and makes the process exit 1 at the end, yet every test says "passed". TSan calls the
// weak hook `__tsan_on_report` for every report it prints (compiler-rt, tsan_rtl_report.cpp); this
// module defines it, counts reports, and the ``gradedUnderTSan`` trait turns a report made while a
// test ran into a failure of that test.

/// Reports TSan has printed in this process so far.
private let reportsPrinted = Atomic<Int>(0)

/// Called by the Thread Sanitizer's runtime for every report, from inside its reporting path: keep
/// it to one atomic increment.
@_cdecl("__tsan_on_report")
public func workbookOnTSanReport(_ report: UnsafeRawPointer?) {
    reportsPrinted.add(1, ordering: .relaxed)
}

/// Runs the tests of a suite one at a time, and fails a test during which the Thread Sanitizer
/// reported a data race.
///
/// One at a time, because a report names no test: only when tests do not overlap does a report made
/// during a test belong to it. (Exit tests run in child processes, whose reports ``judgeChild(_:_:ifItCrashed:sourceLocation:)``
/// reads from their standard error.) `workbook check` reads TSan's reports itself, with the learner's
/// file and line, and sets `WORKBOOK_GRADER` so that the same race is not counted twice.
public struct GradedUnderTSan: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> GradedUnderTSan? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await OneTestAtATime.shared.acquire()
        quickChildExits
        let before = reportsPrinted.load(ordering: .relaxed)
        do {
            try await function()
        } catch {
            await OneTestAtATime.shared.release()
            throw error
        }
        let after = reportsPrinted.load(ordering: .relaxed)
        await OneTestAtATime.shared.release()
        guard after > before, ProcessInfo.processInfo.environment[graderVariable] == nil else { return }
        let count = after - before
        Issue.record(Comment(rawValue: """
            \(FailureMarker.race) the Thread Sanitizer reported \(count == 1 ? "a data race" : "\(count) data races") \
            while this test ran — see the report printed above ("WARNING: ThreadSanitizer: …"): its frames \
            in your exercise file name the two lines that touch the same memory with nothing ordering them. \
            `swift run workbook check` says it in plain words. (If both lines sit inside `Mutex.withLock`, \
            this is a known false alarm on Linux: TSan cannot see `Mutex`; `workbook check` recognises it.)
            """), sourceLocation: test.sourceLocation)
    }
}

extension Trait where Self == GradedUnderTSan {
    /// One test at a time, and a report of the Thread Sanitizer fails the test it happened in.
    public static var gradedUnderTSan: GradedUnderTSan { GradedUnderTSan() }
}

/// The environment variable `workbook check` sets in its test processes.
let graderVariable = "WORKBOOK_GRADER"

/// An asynchronous lock: tests that hold it run one after another.
actor OneTestAtATime {
    static let shared = OneTestAtATime()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard busy else { busy = true; return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}

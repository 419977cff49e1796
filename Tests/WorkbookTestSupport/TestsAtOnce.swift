import Foundation
import Testing
import WorkbookWire

/// An asynchronous counting lock: at most ``width`` test cases of this process run at once, and a
/// test marked ``RunsAlone`` runs with no other.
///
/// The width is one under plain `swift test` (see ``GradedUnderTSan``); under `workbook check`, the
/// number the grader gives (``GraderEnvironment/testsAtOnce``): it shares one budget among the test
/// processes it runs at the same time, since each waiting test is cheap but each exit test's child
/// is a process of its own under the Thread Sanitizer (Exercises/MEASUREMENTS.md, M18). Waiting
/// test cases start in the order they asked.
actor TestsAtOnce {
    static let shared = TestsAtOnce(width: SanitizerReportFile.shared == nil
        ? max(1, ProcessInfo.processInfo.environment[GraderEnvironment.testsAtOnce].flatMap { Int($0) } ?? 1) : 1)
    let width: Int
    private var running = 0
    private var waiting: [(needs: Int, go: CheckedContinuation<Void, Never>)] = []

    init(width: Int) { self.width = width }

    /// Waits for a place: one, or every place when `alone`.
    func acquire(alone: Bool) async {
        let needs = alone ? width : 1
        guard waiting.isEmpty, running + needs <= width else {
            await withCheckedContinuation { waiting.append((needs, $0)) }
            return
        }
        running += needs
    }

    /// Gives back what ``acquire(alone:)`` took, and lets in the waiting cases that now fit, in order.
    func release(alone: Bool) {
        running -= alone ? width : 1
        while let first = waiting.first, running + first.needs <= width {
            waiting.removeFirst()
            running += first.needs
            first.go.resume()
        }
    }
}

/// Runs a test with no other test of its process beside it, under `workbook check` too.
///
/// For the tests whose wrong answers show only when two calls really meet — two threads between
/// the same two steps of the learner's code — which tests running beside them on the same cores
/// make rarer (Exercises/MEASUREMENTS.md, M18).
package struct RunsAlone: TestTrait {}

extension Trait where Self == RunsAlone {
    /// No other test of this process runs beside this one.
    package static var runsAlone: RunsAlone { RunsAlone() }
}

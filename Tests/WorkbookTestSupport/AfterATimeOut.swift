import Dispatch
import Foundation
import Synchronization
import Testing

/// Cuts a suite's waits short once one of its tests has timed out.
///
/// A wrong answer that blocks usually blocks every test of its exercise, each for its whole bound,
/// and under plain `swift test` a suite's tests run one at a time (see ``GradedUnderTSan``), so the
/// bounds add up: measured on Linux x86-64 (2 cores, Swift 6.3.1), 3.2 with a semaphore that starts
/// at zero failed eleven tests in a row, 2 s each, 22 s in all; 2.1 with a `group.wait()` inside
/// runAll, 23 s. After a suite's first time-out, every wait of that suite that goes through
/// ``bound(_:)`` or ``wait(upTo:until:)`` lasts at most ``shortBound`` more, and a time-out it ends
/// in says so. A correct answer never times out, so it never meets the shorter bound.
///
/// Suites are told apart by `Test.current`, so this acts on a test's own thread, where tests wait.
/// An exit test's child runs one test's body with no `Test.current`: its parent passes ``forChild``
/// in through the exit test's capture list, and ``runInChild(seconds:cutShort:_:)`` ends the child
/// after ``shortBound`` if its work has not finished by then — at once if the suite had timed out
/// when the child started, or from when it times out while the child runs (the parent then leaves a
/// file the child looks for: the suite's tests run side by side under `workbook check`). The child
/// still runs, so a trap or a race it meets at once is still reported.
package enum AfterATimeOut {
    /// The longest wait of a suite that has already timed out.
    package static let shortBound = 0.25

    /// How long a wait meant to last `seconds` may last now, on this test's thread: `seconds`, or
    /// ``shortBound`` once this test's suite has timed out.
    package static func bound(_ seconds: Double) -> Double {
        hasTimedOut ? min(seconds, shortBound) : seconds
    }

    /// Waits for something at most `seconds` (cut as ``bound(_:)`` says), asking `happens` with a
    /// slice of the time left until it answers `true`; between slices it asks `timedOut` (by
    /// default: has this test's suite timed out, in another test — they run side by side under
    /// `workbook check`), and once it says so waits at most ``shortBound`` more. Returns `nil` when
    /// it happened, or else the seconds it waited, for the failure message.
    package static func wait(
        upTo seconds: Double, timedOut: () -> Bool = { hasTimedOut }, until happens: (_ slice: Double) -> Bool
    ) -> Double? {
        let started = DispatchTime.now()
        var cut = timedOut()
        var deadline = started + (cut ? min(seconds, shortBound) : seconds)
        while true {
            let now = DispatchTime.now()
            if now >= deadline { return (Double(now.uptimeNanoseconds - started.uptimeNanoseconds) / 1e7).rounded() / 100 }
            if happens(min(Double(deadline.uptimeNanoseconds - now.uptimeNanoseconds) / 1e9, 0.05)) { return nil }
            if !cut, timedOut() {
                cut = true
                deadline = min(deadline, DispatchTime.now() + shortBound)
            }
        }
    }

    /// Whether the current test's suite has timed out already.
    package static var hasTimedOut: Bool {
        guard let suite = currentSuite else { return false }
        return timedOut.contains(suite)
    }

    /// Remembers that the current test's suite has timed out; called by ``recordTimeout(_:sourceLocation:)``.
    /// Returns whether the suite had timed out before (in this test or another).
    static func record() -> Bool {
        guard let suite = currentSuite else { return false }
        guard timedOut.insert(suite) else { return true }
        // For the suite's children still running (see `ChildCutShort`).
        _ = markFolderMade
        // Best effort: without the mark, a child still running waits out its own bounds.
        _ = FileManager.default.createFile(atPath: mark(of: suite), contents: nil)
        return false
    }

    /// Makes the folder of marks once, and has it removed when this process exits (a child leaves
    /// with `_exit`, which runs no exit handler, so it never removes its parent's marks).
    private static let markFolderMade: Void = {
        try? FileManager.default.createDirectory(at: markFolder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: AfterATimeOut.markFolder) }
    }()

    /// What an exit test's child of the current test needs to know to be cut short: pass it in
    /// through the capture list, `[cutShort = AfterATimeOut.forChild as ChildCutShort]`.
    package static var forChild: ChildCutShort {
        ChildCutShort(already: hasTimedOut, mark: currentSuite.map(mark(of:)))
    }

    /// The folder of this process's marks: one empty file per suite that has timed out.
    private static let markFolder = FileManager.default.temporaryDirectory
        .appendingPathComponent("workbook-timed-out-\(getpid())")

    private static func mark(of suite: String) -> String {
        markFolder.appendingPathComponent(suite).path
    }

    /// Added to a time-out recorded after an earlier one of the same suite.
    static let note = "(This exercise had already timed out by then; from then on its tests wait at most \(formatSeconds(shortBound)) for anything.)"

    /// `Module.Suite` of the test running on this task, if any.
    private static var currentSuite: String? {
        guard let id = Test.current?.id, id.nameComponents.count > 1 else { return nil }
        return ([id.moduleName] + id.nameComponents.dropLast()).joined(separator: ".")
    }

    private static let timedOut = SuiteSet()
}

/// Whether an exit test's parent suite had timed out, or times out while the child runs.
package struct ChildCutShort: Codable, Sendable {
    /// The suite had timed out when the child started.
    var already: Bool
    /// The file whose appearance says the suite has timed out since.
    var mark: String?

    /// Whether the suite has timed out by now.
    var hasTimedOut: Bool {
        already || mark.map { FileManager.default.fileExists(atPath: $0) } == true
    }
}

/// A small set of suite names that any thread may read or add to, built on relaxed atomics: the
/// Thread Sanitizer sees no ordering in them, so keeping the set orders nothing between the
/// threads of the tests (a lock here would hide the races the tests are there to find).
private final class SuiteSet: Sendable {
    private final class Slot: Sendable {
        let hash = Atomic<Int>(0)
    }

    // Far more slots than a run has suites (18); a full table only means no cutting short.
    private let slots = (0..<64).map { _ in Slot() }

    private static func hash(_ name: String) -> Int {
        var hasher = Hasher()
        hasher.combine(name)
        let value = hasher.finalize()
        return value == 0 ? 1 : value
    }

    func contains(_ name: String) -> Bool {
        let wanted = Self.hash(name)
        for index in probe(wanted) {
            let held = slots[index].hash.load(ordering: .relaxed)
            if held == wanted { return true }
            if held == 0 { return false }
        }
        return false
    }

    /// Adds `name`; `false` if it was there already.
    @discardableResult
    func insert(_ name: String) -> Bool {
        let wanted = Self.hash(name)
        for index in probe(wanted) {
            let (exchanged, held) = slots[index].hash.compareExchange(expected: 0, desired: wanted, ordering: .relaxed)
            if exchanged { return true }
            if held == wanted { return false }
        }
        return false
    }

    /// The slots to look at for `hash`, in order (linear probing), computed as they are looked at.
    private func probe(_ hash: Int) -> some Sequence<Int> {
        let start = Int(UInt(bitPattern: hash) % UInt(slots.count))
        let count = slots.count
        return (0..<count).lazy.map { (start + $0) % count }
    }
}

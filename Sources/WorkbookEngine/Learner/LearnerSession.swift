import Foundation
import WorkbookCore

/// The learner's side of the workbook: what is done, what to do next, the hint ladder, when the
/// reference solution may be shown, and whether files they should not edit changed. The `workbook`
/// tool only parses and prints; every decision is here, where it is tested.
package struct LearnerSession: Sendable {
    let workbook: Workbook
    private(set) var state: LearnerState

    /// Loads the learner's state. The first time, remembers `currentCommit` (the commit whose
    /// `Exercises/` are the pristine starters) for `reset` and the frozen-file check.
    package init(workbook: Workbook, currentCommit: () -> String?) throws {
        self.workbook = workbook
        state = try LearnerState.load(from: workbook.layout.url(Layout.stateFile))
        if state.starterCommit == nil, let commit = currentCommit() {
            state.starterCommit = commit
            // Best effort: a read-only copy still grades; it only forgets the commit.
            try? save()
        }
    }

    /// Loads the learner's state, taking the starters' commit from git.
    package init(workbook: Workbook) throws {
        try self.init(workbook: workbook, currentCommit: Starters(workbook: workbook).currentCommit)
    }

    private func save() throws { try state.save(to: workbook.layout.url(Layout.stateFile)) }

    // MARK: Progress

    /// Whether `exercise` has passed a check (and not failed one since).
    package func isDone(_ exercise: Exercise) -> Bool { state.done.contains(exercise.id) }

    /// How many exercises are done, of how many.
    package var progress: (done: Int, total: Int) {
        let all = workbook.allExercises
        return (all.filter { isDone($0.exercise) }.count, all.count)
    }

    /// The first exercise not done yet; `nil` when all are.
    package var next: ExerciseRef? {
        workbook.allExercises.first { !isDone($0.exercise) }
    }

    /// Where to go after `report`: the first exercise it saw fail, or, when everything it checked
    /// passed, the first exercise not done yet.
    package func next(after report: CheckReport) -> ExerciseRef? {
        if let failed = report.results.first(where: { !$0.passed }) {
            return ExerciseRef(chapter: failed.chapter, exercise: failed.exercise)
        }
        return next
    }

    /// What one check changed in the learner's progress.
    package struct Change: Sendable, Equatable {
        /// Exercises that passed for the first time (or again after failing).
        var newlyDone: [String] = []
        /// Exercises that were done and failed this time: said, never silently dropped.
        package var undone: [String] = []
    }

    /// What one check of the learner's exercises gave, for the command that asked to show: the
    /// report, what it changed in their progress, where to go next, and the files outside
    /// `Exercises/` that changed (when asked).
    package struct Checked: Sendable {
        package var report: CheckReport
        package var change: Change
        package var next: ExerciseRef?
        package var frozen: [String] = []
    }

    /// Checks `items` with `checker`, `runs` times, records the verdicts and says what to show: the
    /// one way `check`, `explain` and `watch` check. `askingFrozen`: also ask, beside the check, which
    /// files outside `Exercises/` changed (see ``frozenChanges(during:)``).
    package mutating func check(_ items: [ExerciseRef], with checker: Checker, runs: Int = 1,
                                askingFrozen: Bool = false) throws -> Checked {
        let (report, frozen) = askingFrozen
            ? try frozenChanges { try checker.check(items, runs: runs) }
            : (try checker.check(items, runs: runs), [])
        let change = try record(report)
        return Checked(report: report, change: change, next: next(after: report), frozen: frozen)
    }

    /// Records a check's verdicts and saves them.
    @discardableResult
    package mutating func record(_ report: CheckReport) throws -> Change {
        var change = Change()
        for result in report.results {
            let id = result.exercise.id
            if result.passed, !state.done.contains(id) { change.newlyDone.append(id) }
            if !result.passed, state.done.contains(id) { change.undone.append(id) }
        }
        state.record(report)
        let failed = report.results.filter { !$0.passed }.map(\.exercise.id)
        if !failed.isEmpty { state.failedChecks = (state.failedChecks ?? []).union(failed) }
        try save()
        return change
    }

    // MARK: Hints

    /// The hint steps to show now.
    package struct HintView: Sendable, Equatable {
        /// Every step shown so far, this one last.
        package var steps: [HintStep]
        /// How many steps the ladder has.
        package var total: Int
        /// The last step is held back until a check of the exercise has failed (a student copy's hints).
        package var lastStepWaits = false
        package var isLast: Bool { steps.count == total }
    }

    /// One more step of `exercise`'s hint ladder (the first again after `restart`); `nil` when this
    /// copy of the workbook has no hints for it (they live in `Solutions/`, or in a student copy in
    /// ``ExportedHints``). A student copy shows its last step only once a check of the exercise has
    /// failed: try first, then read the closest step to the answer.
    package mutating func nextHint(for exercise: Exercise, in chapter: Chapter, restart: Bool = false) throws -> HintView? {
        let ladder = workbook.hints(for: exercise, in: chapter)
        guard !ladder.isEmpty else { return nil }
        let before = restart ? 0 : (state.hintsShown[exercise.id] ?? 0)
        var shown = min(before + 1, ladder.count)
        let waits = shown == ladder.count && workbook.hintsAreHandedOut(in: chapter)
            && state.failedChecks?.contains(exercise.id) != true
        if waits { shown -= 1 }
        state.hintsShown[exercise.id] = shown
        try save()
        return HintView(steps: Array(ladder.prefix(shown)), total: ladder.count, lastStepWaits: waits)
    }

    // MARK: Solutions

    /// Whether the reference solution of an exercise may be shown.
    package enum SolutionAccess: Sendable, Equatable {
        /// The exercise has passed: show it.
        case open
        /// Not passed, but asked for with `--force`: show it with a warning.
        case forced
        /// Not passed: keep it hidden and point to the hints.
        case hidden
        /// This copy has no solutions (a student's copy).
        case absent
    }

    package func solutionAccess(_ exercise: Exercise, in chapter: Chapter, force: Bool) -> SolutionAccess {
        guard FileManager.default.fileExists(atPath: workbook.solutionFile(chapter, exercise).path) else { return .absent }
        if isDone(exercise) { return .open }
        return force ? .forced : .hidden
    }

    // MARK: Reset and frozen files

    /// Restores the starters of `items` (from the kept copies, or git), backing each learner file up
    /// first; they are no longer done.
    package mutating func reset(_ items: [ExerciseRef], now: Date = Date()) throws -> [(item: ExerciseRef, outcome: Starters.Outcome)] {
        let starters = Starters(workbook: workbook)
        // Every starter is read before any file changes: one that cannot be found changes nothing.
        for item in items { _ = try starters.starter(item.chapter, item.exercise, commit: state.starterCommit) }
        var outcomes: [(item: ExerciseRef, outcome: Starters.Outcome)] = []
        for item in items {
            outcomes.append((item, try starters.reset(item.chapter, item.exercise, commit: state.starterCommit, now: now)))
            state.done.remove(item.exercise.id)
        }
        try save()
        return outcomes
    }

    /// Files outside `Exercises/` that changed since the starters' commit (none when it is unknown).
    package func frozenChanges() -> [String] {
        state.starterCommit.map { Starters(workbook: workbook).frozenChanges(since: $0) } ?? []
    }

    /// Runs `body` with ``frozenChanges()`` asked on a thread beside it (two `git` processes, a
    /// fifth of a second a check need not wait for), and returns what both found.
    package func frozenChanges<Result>(during body: () throws -> Result) rethrows -> (result: Result, frozen: [String]) {
        let found = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let session = self
        Thread {
            found.set(session.frozenChanges())
            done.signal()
        }.start()
        let result: Result
        do {
            result = try body()
        } catch {
            done.wait()
            throw error
        }
        done.wait()
        return (result, found.value)
    }
}

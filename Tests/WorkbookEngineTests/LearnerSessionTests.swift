import Foundation
import Testing
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

@Suite("The learner's session: next exercise, progress kept, hint ladder, the solution's gate")
struct LearnerSessionTests {
    /// The real chapters, over an empty folder of their own (state, hints and solutions written per test).
    private func workbook() throws -> Workbook {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wb-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return Workbook(root: root, chapters: Fixture.workbook.chapters)
    }

    private func report(passing: [String], failing: [String]) -> CheckReport {
        let results = Fixture.items(passing + failing).map { item in
            var result = CheckReport.Result(chapter: item.chapter, exercise: item.exercise)
            let failed = failing.contains(item.exercise.id)
            let findings = failed ? [Finding(kind: .wrong, message: "no")] : []
            result.runs = [ExerciseVerdict(chapter: item.chapter, exercise: item.exercise, findings: findings,
                                           testsRun: 1, testsFailed: failed ? 1 : 0, seconds: 0)]
            return result
        }
        return CheckReport(results: results, runs: 1, buildSeconds: 0, seconds: 0)
    }

    @Test("next: the first exercise not done; after a check, the exercise that just failed, else the next not done")
    func next() throws {
        let workbook = try workbook()
        var session = try LearnerSession(workbook: workbook, currentCommit: { nil })
        #expect(session.next?.exercise.id == "1.1")
        try session.record(report(passing: ["1.1", "1.2"], failing: []))
        #expect(session.next?.exercise.id == "1.3")
        let failed = report(passing: ["1.3"], failing: ["2.2"])
        try session.record(failed)
        #expect(session.next(after: failed)?.exercise.id == "2.2", "points at what just failed")
        #expect(session.next?.exercise.id == "2.1", "overall, 2.1 is still the first not done")
        let passed = report(passing: ["2.2"], failing: [])
        try session.record(passed)
        #expect(session.next(after: passed)?.exercise.id == "2.1", "after a ✔, the next not done")
        #expect(session.progress == (4, workbook.allExercises.count))
    }

    @Test("progress is saved, and an exercise that was done and fails again is said so")
    func record() throws {
        let workbook = try workbook()
        var session = try LearnerSession(workbook: workbook, currentCommit: { nil })
        let first = try session.record(report(passing: ["1.1", "1.2"], failing: ["1.3"]))
        #expect(first == LearnerSession.Change(newlyDone: ["1.1", "1.2"], undone: []))
        let second = try session.record(report(passing: ["1.1"], failing: ["1.2"]))
        #expect(second == LearnerSession.Change(newlyDone: [], undone: ["1.2"]))
        let reloaded = try LearnerSession(workbook: workbook, currentCommit: { nil })
        #expect(reloaded.state.done == ["1.1"])
    }

    @Test("check, explain and watch check through one session method: it checks, records the verdicts and says where to go next")
    func check() throws {
        let workbook = try workbook()
        var session = try LearnerSession(workbook: workbook, currentCommit: { nil })
        var checker = Checker(workbook: workbook, platform: Platform(.process), scratchPath: workbook.root.appendingPathComponent(".build-check"))
        checker.packageBuild = RecordedBuild { _, _ in (0, "Build complete!") }
        checker.testProcess = { _ in ReplayedRuns(Fixture.run("race-1.1", .exited(66))) }
        checker.readSource = { _ in Fixture.text("race-1.1/CountdownBlock.swift.txt") }
        let checked = try session.check(Fixture.items("1.1"), with: checker)
        #expect(checked.report.results.map(\.kind) == [.race])
        #expect(checked.next?.exercise.id == "1.1", "points at what just failed")
        #expect(checked.frozen.isEmpty, "not asked")
        #expect(try LearnerSession(workbook: workbook, currentCommit: { nil }).state.failedChecks == ["1.1"], "recorded and saved")
    }

    @Test("the starters' commit is remembered once, from the first session")
    func starterCommit() throws {
        let workbook = try workbook()
        _ = try LearnerSession(workbook: workbook, currentCommit: { String(repeating: "a", count: 40) })
        let later = try LearnerSession(workbook: workbook, currentCommit: { String(repeating: "b", count: 40) })
        #expect(later.state.starterCommit == String(repeating: "a", count: 40))
    }

    @Test("hints: one more step per call, never past the last, --reset starts over, none in a copy without them")
    func hints() throws {
        let workbook = try workbook()
        var session = try LearnerSession(workbook: workbook, currentCommit: { nil })
        let named = try workbook.exercise(named: "1.1")
        let (chapter, exercise) = (named.chapter, named.exercise)
        #expect(try session.nextHint(for: exercise, in: chapter) == nil)

        let file = workbook.hintFile(of: chapter)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "## 1.1 T\n### Question\nq\n### Direction\nd\n### Shape\ns\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try session.nextHint(for: exercise, in: chapter)?.steps.map(\.name) == ["Question"])
        #expect(try session.nextHint(for: exercise, in: chapter)?.steps.count == 2)
        let last = try #require(try session.nextHint(for: exercise, in: chapter))
        #expect(last.isLast && last.steps.count == 3)
        #expect(try session.nextHint(for: exercise, in: chapter)?.steps.count == 3, "stays at the last step")
        #expect(try session.nextHint(for: exercise, in: chapter, restart: true)?.steps.count == 1)
        #expect(try LearnerSession(workbook: workbook, currentCommit: { nil }).state.hintsShown["1.1"] == 1, "saved")
    }

    @Test("the solution: open once passed, hidden before (unless forced), absent from a copy without solutions")
    func solutionGate() throws {
        let workbook = try workbook()
        var session = try LearnerSession(workbook: workbook, currentCommit: { nil })
        let named = try workbook.exercise(named: "1.1")
        let (chapter, exercise) = (named.chapter, named.exercise)
        #expect(session.solutionAccess(exercise, in: chapter, force: true) == .absent)
        let file = workbook.solutionFile(chapter, exercise)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "// solution".write(to: file, atomically: true, encoding: .utf8)
        #expect(session.solutionAccess(exercise, in: chapter, force: false) == .hidden)
        #expect(session.solutionAccess(exercise, in: chapter, force: true) == .forced)
        try session.record(report(passing: ["1.1"], failing: []))
        #expect(session.solutionAccess(exercise, in: chapter, force: false) == .open)
    }

    @Test("reset without git history: from the kept copy, the learner's file backed up; with neither, nothing changes")
    func resetWithoutHistory() throws {
        let workbook = try workbook()
        var session = try LearnerSession(workbook: workbook, currentCommit: { nil })
        let named = try workbook.exercise(named: "1.1")
        let (chapter, exercise) = (named.chapter, named.exercise)
        let file = workbook.exerciseFile(chapter, exercise)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "mine".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: WorkbookError.self) { try session.reset([named]) }
        #expect(try String(contentsOf: file, encoding: .utf8) == "mine", "nothing changed")
        #expect(session.frozenChanges().isEmpty)

        let kept = workbook.layout.url(Layout.starterCopy(chapter, exercise))
        try FileManager.default.createDirectory(at: kept.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "starter".write(to: kept, atomically: true, encoding: .utf8)
        let outcome = try #require(try session.reset([named]).first?.outcome)
        guard case let .restored(backup?) = outcome else {
            Issue.record("not restored with a backup: \(outcome)")
            return
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "starter")
        #expect(try String(contentsOf: backup, encoding: .utf8) == "mine")
    }

    @Test("a student copy's hints: one step per call; the last only once a check of that exercise has failed")
    func handedOutHints() throws {
        let workbook = try workbook()
        var session = try LearnerSession(workbook: workbook, currentCommit: { nil })
        let named = try workbook.exercise(named: "1.1")
        let (chapter, exercise) = (named.chapter, named.exercise)
        let ladder = [HintStep(name: "Question", text: "q"), HintStep(name: "Direction", text: "d"), HintStep(name: "Shape", text: "```swift\ns\n```")]
        try ExportedHints(level: .nudges, ladders: ["1.1": ladder, "1.2": ladder]).encoded()
            .write(to: workbook.root.appendingPathComponent(ExportedHints.fileName))
        #expect(workbook.hintsAreHandedOut(in: chapter))

        let first = try #require(try session.nextHint(for: exercise, in: chapter))
        #expect(first.steps.map(\.name) == ["Question"] && first.total == 2 && !first.lastStepWaits)
        let held = try #require(try session.nextHint(for: exercise, in: chapter))
        #expect(held.steps.map(\.name) == ["Question"] && held.lastStepWaits && !held.isLast, "no failed check yet")
        try session.record(report(passing: [], failing: ["1.2"]))
        #expect(try session.nextHint(for: exercise, in: chapter)?.lastStepWaits == true, "a failed check of another exercise opens nothing")
        try session.record(report(passing: [], failing: ["1.1"]))
        var reloaded = try LearnerSession(workbook: workbook, currentCommit: { nil })
        let last = try #require(try reloaded.nextHint(for: exercise, in: chapter))
        #expect(last.steps.map(\.name) == ["Question", "Direction"] && last.isLast && !last.lastStepWaits, "the failed check was saved")
    }

    @Test("the workbook's own hints.md wins over handed-out hints, and is not held back")
    func ownHintsFirst() throws {
        let workbook = try workbook()
        var session = try LearnerSession(workbook: workbook, currentCommit: { nil })
        let named = try workbook.exercise(named: "1.1")
        let (chapter, exercise) = (named.chapter, named.exercise)
        try ExportedHints(level: .all, ladders: ["1.1": [HintStep(name: "Question", text: "exported")]]).encoded()
            .write(to: workbook.root.appendingPathComponent(ExportedHints.fileName))
        #expect(workbook.hints(for: exercise, in: chapter).map(\.text) == ["exported"])
        let file = workbook.hintFile(of: chapter)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "## 1.1 T\n### Question\nown\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(!workbook.hintsAreHandedOut(in: chapter))
        let view = try #require(try session.nextHint(for: exercise, in: chapter))
        #expect(view.steps.map(\.text) == ["own"] && view.isLast && !view.lastStepWaits)
    }

    @Test("a progress file from before failed checks were kept still reads")
    func olderState() throws {
        let workbook = try workbook()
        try #"{"version": 1, "done": ["1.1"], "hintsShown": {"1.2": 1}}"#.write(to: workbook.layout.url(Layout.stateFile), atomically: true, encoding: .utf8)
        let session = try LearnerSession(workbook: workbook, currentCommit: { nil })
        #expect(session.state.done == ["1.1"] && session.state.failedChecks == nil)
    }
}

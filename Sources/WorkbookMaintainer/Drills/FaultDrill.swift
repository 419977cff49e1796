import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

/// An end-to-end test of the grader against the faults learner code can throw at it.
///
/// Copies the package into a scratch folder, swaps the fault files of
/// `Tests/Fixtures/drill/` in over some starters (see the README there), grades the
/// copy with ``Checker`` exactly as `workbook check` does, and compares every verdict with the
/// expected one.
struct FaultDrill: Sendable {
    var workbook: Workbook
    var progress: @Sendable (String) -> Void

    init(workbook: Workbook, platform: Platform, progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.workbook = workbook
        self.platform = platform
        self.progress = progress
    }

    /// One expectation of the drill and whether it held — or whether it could not be checked here.
    struct Outcome: Sendable {
        var fault: String
        var expected: String
        var actual: String
        var held: Bool
        /// Not checked on this platform (`actual` says why): counted apart, never as held.
        var skipped = false

        package init(fault: String, expected: String, actual: String, held: Bool) {
            self.fault = fault
            self.expected = expected
            self.actual = actual
            self.held = held
        }

        /// An expectation this platform cannot check, and why.
        static func skipped(_ fault: String, expected: String, because reason: String) -> Outcome {
            var outcome = Outcome(fault: fault, expected: expected, actual: reason, held: false)
            outcome.skipped = true
            return outcome
        }

        /// A failed row of a drill table whose exercise this workbook does not have.
        static func missing(_ exercise: String, fault: String, expected: String) -> Outcome {
            Outcome(fault: fault, expected: expected, actual: "no exercise \(exercise) in this workbook", held: false)
        }
    }

    /// Whose ways of building, locating crashes and listing processes the drill relies on.
    var platform: Platform
    /// Where each test run's artifacts are kept (``WorkbookEnvironment/keepArtifacts``); `nil`: nowhere.
    var artifactsKeptIn: URL?

    /// One fault of the drill: a fixture of `Tests/Fixtures/drill/` swapped over an
    /// exercise (`nil`: the exercise's own solution), and the verdict `check` must give it.
    struct Swap: Sendable {
        var fixture: String?
        var exercise: String
        var expected: String
        var fault: String
    }

    /// The drill, as data: looked up by exercise id, so a workbook that changes its chapters gets a
    /// failed row that says which exercise is missing, never a crash.
    static let swaps: [Swap] = [
        Swap(fixture: nil, exercise: "1.1", expected: "pass", fault: "a solution copied over its exercise flips it to ✔"),
        Swap(fixture: "Trap.swift", exercise: "5.1", expected: "crash", fault: "a trap: that exercise is a crash, the rest graded"),
        Swap(fixture: "LoudFake.swift", exercise: "5.2", expected: "race", fault: "megabytes of fake passes and events: verdict from the event stream"),
        Swap(fixture: "EndlessLoop.swift", exercise: "5.3", expected: "hang", fault: "an endless loop: stopped by the watchdog"),
        Swap(fixture: "BlocksCaller.swift", exercise: "2.1", expected: "hang", fault: "a call that blocks its caller: that exercise never finished, the rest graded"),
    ]

    /// Runs the drill: every ``swaps`` entry, the other exercises of their chapters, and two more
    /// chapters — the first other one with a starter that must not compile (only that exercise is
    /// left out) and one whose tests the drill breaks (the whole chapter is left out).
    func run() throws -> [Outcome] {
        var outcomes: [Outcome] = []
        var swapped: [(swap: Swap, chapter: Chapter, exercise: Exercise)] = []
        for swap in Self.swaps {
            guard let item = workbook.allExercises.first(where: { $0.exercise.id == swap.exercise }) else {
                outcomes.append(.missing(swap.exercise, fault: swap.fault, expected: "\(swap.exercise) \(swap.expected)"))
                continue
            }
            swapped.append((swap, item.chapter, item.exercise))
        }
        let drilled = Set(swapped.map(\.chapter.number))
        let isolated = workbook.chapters.first { chapter in
            !drilled.contains(chapter.number) && chapter.exercises.count > 1
                && chapter.exercises.contains { $0.expectedFailure == .compile }
        }
        let other = workbook.chapters.first { !drilled.contains($0.number) && $0.number != isolated?.number }
        let copy = workbook.layout.url(Layout.scratch(.selftestDrill)).appendingPathComponent("package")
        let mirror = PackageMirror(source: workbook.root, copy: copy)
        try mirror.sync()

        let drill = workbook.layout.url(Layout.drillFixtures)
        func swap(_ fixture: String?, over chapter: Chapter, _ exercise: Exercise) throws {
            let source = fixture.map { drill.appendingPathComponent($0) }
                ?? workbook.solutionFile(chapter, exercise)
            try mirror.swap(Layout.exerciseFile(chapter, exercise), with: source)
        }
        for item in swapped { try swap(item.swap.fixture, over: item.chapter, item.exercise) }
        if let other, let first = other.exercises.first { try swap("BreaksItsTests.swift", over: other, first) }

        let copied = try Workbook(root: copy)
        let numbers = drilled.union([other?.number, isolated?.number].compactMap { $0 })
        let chapters = copied.chapters.filter { numbers.contains($0.number) }
        let compiling = [isolated.map { "a starter that does not compile in \($0.shortName)" },
                         other.map { "tests that do not compile in \($0.shortName)" }].compactMap { $0 }
        progress("Fault drill: grading a copy with a solution, a trap, an endless loop, a blocked caller, a flood of fake output\(compiling.map { ", " + $0 }.joined())…")
        let scratch = workbook.layout.url(Layout.scratch(.selftestDrill)).appendingPathComponent("build")
        var checker = Checker(workbook: copied, platform: platform, scratchPath: scratch)
        checker.artifactsKeptIn = artifactsKeptIn
        let report = try checker.check(chapters.flatMap { chapter in chapter.exercises.map { ExerciseRef(chapter: chapter, exercise: $0) } })

        func verdict(_ id: String) -> String {
            guard let result = report.results.first(where: { $0.exercise.id == id }) else { return "not graded" }
            return result.passed ? "pass" : (result.kind?.rawValue ?? "fail")
        }
        func expect(_ fault: String, _ id: String, _ expected: String) {
            let actual = verdict(id)
            outcomes.append(Outcome(fault: fault, expected: "\(id) \(expected)", actual: "\(id) \(actual)", held: actual == expected))
        }
        for item in swapped { expect(item.swap.fault, item.exercise.id, item.swap.expected) }
        for chapter in workbook.chapters where drilled.contains(chapter.number) {
            for exercise in chapter.exercises where !swapped.contains(where: { $0.exercise.id == exercise.id }) {
                expect("a drilled chapter's other starters stay caught", exercise.id, exercise.expectedFailure.rawValue)
            }
        }
        // Through `swift test --skip-build`: plain `swift test` as a learner types it, and the way
        // the grader starts tests on macOS. `swift test` finds the suites only in SwiftPM's test
        // product, which the check's build leaves out on Linux (the suites are an executable of their
        // own there), so `swift test`'s launch builds the same chapters first — without the chapter
        // whose tests do not compile, and the exercise that does not compile with its suite, as the
        // check's build remembered them.
        if let blocked = swapped.first(where: { $0.swap.fixture == "BlocksCaller.swift" }) {
            var throughSwiftTest = platform
            throughSwiftTest.launchAskedFor = TestLaunch.Method.swiftTest.rawValue
            let builder = Builder(workbook: copied, platform: throughSwiftTest, sources: .exercises, scratchPath: scratch)
            let built = try? builder.build(chapters.filter { $0.number != other?.number })
            outcomes.append(plainRun(of: blocked.chapter, blocked: blocked.exercise, launch: built?.launch))
        }
        // Last of the runs over this build: the Darwin check builds its two chapters alone.
        if let trap = swapped.first(where: { $0.swap.fixture == "Trap.swift" }) {
            outcomes.append(placed(trap.exercise, in: report, fixture: drill.appendingPathComponent("Trap.swift")))
            let race = workbook.allExercises.first { item in
                item.exercise.expectedFailure == .race && drilled.contains(item.chapter.number)
                    && !swapped.contains { $0.exercise.id == item.exercise.id }
            }
            outcomes += darwinPaths(copied, scratch: scratch, trap: ExerciseRef(chapter: trap.chapter, exercise: trap.exercise), race: race)
        }
        if let isolated {
            for exercise in isolated.exercises {
                guard exercise.expectedFailure == .compile else {
                    expect("beside a starter that does not compile, the chapter's others are graded", exercise.id, exercise.expectedFailure.rawValue)
                    continue
                }
                // Graded "compile", with the compiler's errors in its own file only.
                let result = report.results.first { $0.exercise.id == exercise.id }
                let files = Set((result?.compileErrors ?? []).map { ($0.file as NSString).lastPathComponent })
                let actual = "\(exercise.id) \(verdict(exercise.id))" + (files.isEmpty ? "" : " in \(files.sorted().joined(separator: ", "))")
                let expected = "\(exercise.id) compile in \(exercise.file)"
                outcomes.append(Outcome(fault: "a starter that does not compile: that exercise alone, at its own file", expected: expected,
                                        actual: actual, held: actual == expected))
            }
        }
        if let other {
            for exercise in other.exercises {
                expect("tests that do not compile: the whole chapter is reported, others graded", exercise.id, "compile")
            }
        }
        if let executable = workbookExecutable {
            outcomes.append(interrupt(executable, copy: copy, launch: .binary))
            // `swift test` leads no group of its runner: Ctrl-C must reach the runner all the same.
            outcomes.append(interrupt(executable, copy: copy, launch: .swiftTest))
        }
        outcomes += doctor()
        return outcomes
    }

    /// The `workbook` executable to drive for the Ctrl-C fault, when running inside it.
    var workbookExecutable: URL?

    /// Whether the trapped exercise's crash was placed at the fixture's trapping line (`.leave()`),
    /// where this platform can place one.
    func placed(_ exercise: Exercise, in report: CheckReport, fixture: URL) -> Outcome {
        let placing = "a trap is placed at the learner's line"
        let trap = (try? String(contentsOf: fixture, encoding: .utf8)) ?? ""
        let line = trap.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(".leave()") }.map { $0 + 1 }
        let expected = "\(exercise.file):\(line.map(String.init) ?? "?")"
        guard platform.crashLocator != .none else {
            return .skipped(placing, expected: expected, because: "no crash locator on this machine (gdb is not installed)")
        }
        let finding = report.results.first { $0.exercise.id == exercise.id }?.findings.first { $0.kind == .crash }
        let actual = finding?.location.map { ($0 as NSString).lastPathComponent } ?? "no location"
        return Outcome(fault: placing, expected: expected, actual: actual, held: actual == expected)
    }
}

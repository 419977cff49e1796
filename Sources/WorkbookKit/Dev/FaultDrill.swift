import Foundation

/// An end-to-end test of the grader against the faults learner code can throw at it.
///
/// Copies the package into a scratch folder, swaps the fault files of
/// `Tests/WorkbookKitTests/Fixtures/drill/` in over some starters (see the README there), grades the
/// copy with ``Checker`` exactly as `workbook check` does, and compares every verdict with the
/// expected one.
public struct FaultDrill: Sendable {
    public var workbook: Workbook
    public var progress: @Sendable (String) -> Void

    public init(workbook: Workbook, progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.workbook = workbook
        self.progress = progress
    }

    /// One expectation of the drill and whether it held — or whether it could not be checked here.
    public struct Outcome: Sendable {
        public var fault: String
        public var expected: String
        public var actual: String
        public var held: Bool
        /// Not checked on this platform (`actual` says why): counted apart, never as held.
        public var skipped = false

        public init(fault: String, expected: String, actual: String, held: Bool) {
            self.fault = fault
            self.expected = expected
            self.actual = actual
            self.held = held
        }

        /// An expectation this platform cannot check, and why.
        public static func skipped(_ fault: String, expected: String, because reason: String) -> Outcome {
            var outcome = Outcome(fault: fault, expected: expected, actual: reason, held: false)
            outcome.skipped = true
            return outcome
        }
    }

    /// Whose ways of locating crashes and listing processes the drill relies on.
    public var platform: Platform = .host

    /// Runs the drill; needs Chapters 1, 2 and 5. It also grades the first other chapter with a
    /// starter that must not compile (only that exercise is left out), and breaks one more chapter's
    /// tests (the whole chapter is left out).
    public func run() throws -> [Outcome] {
        guard let one = workbook.chapters.first(where: { $0.number == 1 }),
              let two = workbook.chapters.first(where: { $0.number == 2 }),
              let five = workbook.chapters.first(where: { $0.number == 5 }) else {
            return [Outcome(fault: "fault drill", expected: "Chapters 1, 2 and 5", actual: "missing", held: false)]
        }
        let isolated = workbook.chapters.first { chapter in
            ![1, 2, 5].contains(chapter.number) && chapter.exercises.count > 1
                && chapter.exercises.contains { $0.expectedFailure == .compile }
        }
        let other = workbook.chapters.first { ![1, 2, 5, isolated?.number].contains($0.number) }
        let copy = workbook.layout.url(Layout.scratch(.selftestDrill)).appendingPathComponent("package")
        let mirror = PackageMirror(source: workbook.root, copy: copy)
        try mirror.sync()

        let drill = workbook.layout.url(Layout.drillFixtures)
        func swap(_ fixture: String?, over chapter: Chapter, _ exercise: Exercise) throws {
            let source = fixture.map { drill.appendingPathComponent($0) }
                ?? workbook.solutionFile(chapter, exercise)
            try mirror.swap(Layout.exerciseFile(chapter, exercise), with: source)
        }
        try swap(nil, over: one, one.exercises[0])
        try swap("Trap.swift", over: five, five.exercises[0])
        try swap("LoudFake.swift", over: five, five.exercises[1])
        try swap("EndlessLoop.swift", over: five, five.exercises[2])
        try swap("BlocksCaller.swift", over: two, two.exercises[0])
        if let other { try swap("BreaksItsTests.swift", over: other, other.exercises[0]) }

        let copied = try Workbook(root: copy)
        let chapters = copied.chapters.filter { [1, 2, 5, other?.number, isolated?.number].contains($0.number) }
        let compiling = [isolated.map { "a starter that does not compile in \($0.shortName)" },
                         other.map { "tests that do not compile in \($0.shortName)" }].compactMap { $0 }
        progress("Fault drill: grading a copy with a solution, a trap, an endless loop, a blocked caller, a flood of fake output\(compiling.map { ", " + $0 }.joined())…")
        let scratch = workbook.layout.url(Layout.scratch(.selftestDrill)).appendingPathComponent("build")
        let report = try Checker(workbook: copied, scratchPath: scratch)
            .check(chapters.flatMap { chapter in chapter.exercises.map { (chapter: chapter, exercise: $0) } })

        func verdict(_ id: String) -> String {
            guard let result = report.results.first(where: { $0.exercise.id == id }) else { return "not graded" }
            return result.passed ? "pass" : (result.kind?.rawValue ?? "fail")
        }
        var outcomes: [Outcome] = []
        func expect(_ fault: String, _ id: String, _ expected: String) {
            let actual = verdict(id)
            outcomes.append(Outcome(fault: fault, expected: "\(id) \(expected)", actual: "\(id) \(actual)", held: actual == expected))
        }
        expect("a solution copied over its exercise flips it to ✔", one.exercises[0].id, "pass")
        for exercise in one.exercises.dropFirst() {
            expect("the chapter's other starters stay caught", exercise.id, exercise.expectedFailure.rawValue)
        }
        expect("a trap: that exercise is a crash, the rest graded", five.exercises[0].id, "crash")
        let placing = "a trap is placed at the learner's line"
        // The trap's own line, found in the fixture, is where the crash must be placed.
        let trap = (try? String(contentsOf: drill.appendingPathComponent("Trap.swift"), encoding: .utf8)) ?? ""
        let trapLine = trap.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(".leave()") }.map { $0 + 1 }
        let expectedPlace = "\(five.exercises[0].file):\(trapLine.map(String.init) ?? "?")"
        if platform.crashLocator == .none {
            outcomes.append(.skipped(placing, expected: expectedPlace, because: "no crash locator on this machine (gdb is not installed)"))
        } else {
            let finding = report.results.first { $0.exercise.id == five.exercises[0].id }?.findings.first { $0.kind == .crash }
            let actual = finding?.location.map { ($0 as NSString).lastPathComponent } ?? "no location"
            outcomes.append(Outcome(fault: placing, expected: expectedPlace, actual: actual, held: actual == expectedPlace))
        }
        expect("megabytes of fake passes and events: verdict from the event stream", five.exercises[1].id, "race")
        expect("a call that blocks its caller: that exercise never finished, the rest graded", two.exercises[0].id, "hang")
        for exercise in two.exercises.dropFirst() {
            expect("the blocked chapter's other starters stay caught", exercise.id, exercise.expectedFailure.rawValue)
        }
        // Through `swift test --skip-build`: plain `swift test` as a learner types it, and the way
        // the grader starts tests on macOS. (The build left out the chapter whose tests do not
        // compile, and the exercise that does not compile with its suite.)
        let built = copied.chapters.filter { $0.number != other?.number }.map(\.shortName)
        let builder = Builder(workbook: copied, sources: .exercises, scratchPath: scratch)
        let leftOut = copied.chapters.filter { $0.number == isolated?.number }.flatMap { chapter in
            chapter.exercises.filter { $0.expectedFailure == .compile }.flatMap { builder.exclusion(of: chapter, $0) }
        }
        var launch = TestLaunch(method: .swiftTest, packageRoot: copy, scratchPath: scratch, sources: .exercises,
                                only: built.count == copied.chapters.count ? nil : built, exclude: leftOut)
        launch.withEngine = builder.withEngine
        outcomes.append(plainRun(of: two, blocked: two.exercises[0], launch: launch))
        expect("an endless loop: stopped by the watchdog", five.exercises[2].id, "hang")
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
        outcomes += darwinPaths(copied, scratch: scratch, trap: (five, five.exercises[0]),
                                race: two.exercises.dropFirst().first { $0.expectedFailure == .race }.map { (two, $0) })
        if let executable = workbookExecutable {
            outcomes.append(interrupt(executable, copy: copy))
        }
        return outcomes
    }

    /// The `workbook` executable to drive for the Ctrl-C fault, when running inside it.
    public var workbookExecutable: URL?
}

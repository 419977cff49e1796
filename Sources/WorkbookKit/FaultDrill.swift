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
        var launch = TestLaunch(style: .swiftTest, packageRoot: copy, scratchPath: scratch, sources: .exercises,
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

    /// The same copy graded through Darwin's paths, as far as they run here: the tests started by
    /// `swift test --skip-build`, a trapped test read from SwiftPM's "exited with unexpected signal
    /// code" line, TSan's reports read as a Mac's `check` reads them, crashes looked for in crash
    /// reports (there are none here, so the trap stays unplaced but graded).
    func darwinPaths(_ copied: Workbook, scratch: URL, trap: (Chapter, Exercise),
                     race: (Chapter, Exercise)?) -> [Outcome] {
        let items = [trap] + (race.map { [$0] } ?? [])
        var checker = Checker(workbook: copied, scratchPath: scratch)
        checker.platform = Platform(.darwin)
        let fault = "Darwin's paths on this machine (swift test launch, its signal line, crash reports)"
        guard let report = try? checker.check(items.map { (chapter: $0.0, exercise: $0.1) }) else {
            return [Outcome(fault: fault, expected: "graded", actual: "check threw", held: false)]
        }
        return items.map { chapter, exercise in
            let expected = exercise.id == trap.1.id ? "crash" : "race"
            let result = report.results.first { $0.exercise.id == exercise.id }
            let actual = result.map { $0.passed ? "pass" : ($0.kind?.rawValue ?? "fail") } ?? "not graded"
            return Outcome(fault: fault, expected: "\(exercise.id) \(expected)", actual: "\(exercise.id) \(actual)", held: actual == expected)
        }
    }

    /// A blocking answer under plain `swift test --filter ChapterN`, without the grader's watchdog
    /// or its settings: the suites' own bounds must end the run within 30 s, with the blocked
    /// exercise failed as a time-out and every other test of the chapter run.
    func plainRun(of chapter: Chapter, blocked: Exercise, launch: TestLaunch) -> Outcome {
        let fault = "a blocked caller under plain `swift test --filter \(chapter.shortName)`: ends in < 30 s, all tests run"
        func outcome(_ actual: String) -> Outcome {
            Outcome(fault: fault, expected: "\(blocked.id) ends", actual: actual, held: actual == "\(blocked.id) ends")
        }
        let events = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-drill-\(UUID().uuidString.prefix(8)).jsonl")
        defer { try? FileManager.default.removeItem(at: events) }
        let command = launch.command(["--filter", chapter.testModule] + Toolchain.inUse.eventStreamArguments(to: events.path))
        guard let result = try? ChildProcess.run(command.executable, command.arguments, environment: command.environment,
                                                 timeLimit: 60) else {
            return outcome("`\(command.executable)` did not start")
        }
        let stream = EventStream(contentsOf: events)
        let tests = stream.started.filter { $0.contains("/") }
        let unfinished = tests.filter { stream.ended[$0] == nil }
        let blockedSuite = "\(chapter.testModule).\(blocked.suite)/"
        let timedOut = stream.issues.contains { $0.testID.hasPrefix(blockedSuite) && $0.kind == .hang }
        if result.seconds >= 30 || result.termination.exitCode == nil {
            return outcome("still running after \(Int(result.seconds)) s (\(result.termination.description))")
        }
        if !unfinished.isEmpty { return outcome("\(unfinished.count) test(s) never ended") }
        if !timedOut { return outcome("\(blocked.id) has no time-out failure") }
        return outcome("\(blocked.id) ends")
    }

    /// The `workbook` executable to drive for the Ctrl-C fault, when running inside it.
    public var workbookExecutable: URL?

    /// Ctrl-C during `check`: starts `workbook check` on the copy, presses Ctrl-C (SIGINT) once its
    /// test binary runs, and demands exit status 130, no test process left behind, and a state file
    /// that still reads.
    func interrupt(_ executable: URL, copy: URL) -> Outcome {
        let fault = "Ctrl-C during check: children ended, no orphans, state intact"
        func outcome(_ actual: String) -> Outcome {
            Outcome(fault: fault, expected: "exit 130", actual: actual, held: actual == "exit 130")
        }
        let scratch = workbook.layout.url(Layout.scratch(.selftestDrill)).appendingPathComponent("build")
        // The test processes are the ones whose command line names the build: the test executable,
        // or `swift test --scratch-path …` and the runner it starts (Darwin).
        let build = scratch.path
        let process = Process()
        process.executableURL = executable
        process.arguments = ["check", "5"]
        var environment = ProcessInfo.processInfo.environment
        environment["WORKBOOK_ROOT"] = copy.path
        environment["WORKBOOK_CHECK_SCRATCH"] = scratch.path
        environment["NO_COLOR"] = "1"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return outcome("could not start workbook: \(error)") }

        let started = Date()
        while platform.processes(mentioning: build).isEmpty {
            guard process.isRunning, Date().timeIntervalSince(started) < 120 else {
                process.terminate()
                return outcome("the test binary never started")
            }
            usleep(50_000)
        }
        process.interrupt()
        let deadline = Date().addingTimeInterval(15)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        guard !process.isRunning else {
            process.terminate()
            return outcome("workbook did not stop within 15 s of Ctrl-C")
        }
        let leftBehind = platform.processes(mentioning: build)
        guard leftBehind.isEmpty else { return outcome("left \(leftBehind.count) test process(es) running") }
        do {
            _ = try LearnerState.load(from: Layout(root: copy).url(Layout.stateFile))
        } catch {
            return outcome("the state file no longer reads: \(error)")
        }
        return outcome("exit \(process.terminationStatus)")
    }
}

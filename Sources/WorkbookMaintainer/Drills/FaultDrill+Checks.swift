import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

/// The drill's checks that start processes of their own: Darwin's paths, plain `swift test`, Ctrl-C.
extension FaultDrill {
    /// The same copy graded through Darwin's paths, as far as they run here: the tests started by
    /// `swift test --skip-build`, a trapped test read from SwiftPM's "exited with unexpected signal
    /// code" line, TSan's reports read as a Mac's `check` reads them, crashes looked for in crash
    /// reports (there are none here, so the trap stays unplaced but graded).
    func darwinPaths(_ copied: Workbook, scratch: URL, trap: ExerciseRef,
                     race: ExerciseRef?) -> [Outcome] {
        let items = [trap] + (race.map { [$0] } ?? [])
        var checker = Checker(workbook: copied, platform: Platform(.darwin), scratchPath: scratch)
        checker.artifactsKeptIn = artifactsKeptIn
        let fault = "Darwin's paths on this machine (swift test launch, its signal line, crash reports)"
        guard let report = try? checker.check(items) else {
            return [Outcome(fault: fault, expected: "graded", actual: "check threw", held: false)]
        }
        return items.map { item in
            let exercise = item.exercise
            let expected = exercise.id == trap.exercise.id ? "crash" : "race"
            let result = report.results.first { $0.exercise.id == exercise.id }
            let actual = result.map { $0.passed ? "pass" : ($0.kind?.rawValue ?? "fail") } ?? "not graded"
            return Outcome(fault: fault, expected: "\(exercise.id) \(expected)", actual: "\(exercise.id) \(actual)", held: actual == expected)
        }
    }

    /// A blocking answer under plain `swift test --filter ChapterN`, without the grader's watchdog
    /// or its settings: the suites' own bounds must end the run within 30 s, with the blocked
    /// exercise failed as a time-out and every other test of the chapter run.
    func plainRun(of chapter: Chapter, blocked: Exercise, launch: TestLaunch?) -> Outcome {
        let fault = "a blocked caller under plain `swift test --filter \(chapter.shortName)`: ends in < 30 s, all tests run"
        func outcome(_ actual: String) -> Outcome {
            Outcome(fault: fault, expected: "\(blocked.id) ends", actual: actual, held: actual == "\(blocked.id) ends")
        }
        guard let launch else { return outcome("the chapters were not built for `swift test`") }
        let events = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-drill-\(UUID().uuidString.prefix(8)).jsonl")
        defer { try? FileManager.default.removeItem(at: events) }
        let command = launch.command(["--filter", chapter.testModule] + launch.platform.toolchainInUse.eventStreamArguments(to: events.path))
        guard let result = try? ChildProcess.run(command.executable, command.arguments, environment: command.environment,
                                                 timeLimit: 60) else {
            return outcome("`\(command.executable)` did not start")
        }
        let stream = EventStream(contentsOf: events)
        let tests = stream.started.filter { TestID($0).isTest }
        let unfinished = tests.filter { stream.ended[$0] == nil }
        let blockedSuite = SuiteID(chapter, blocked)
        let timedOut = stream.issues.contains { blockedSuite.hasTest($0.testID) && $0.kind == .hang }
        if result.seconds >= 30 || result.termination.exitCode == nil {
            return outcome("still running after \(Int(result.seconds)) s (\(result.termination.description))")
        }
        if !unfinished.isEmpty { return outcome("\(unfinished.count) test(s) never ended") }
        if !timedOut { return outcome("\(blocked.id) has no time-out failure") }
        return outcome("\(blocked.id) ends")
    }


    /// Ctrl-C during `check`: starts `workbook check` on the copy with the tests started by
    /// `launch`, presses Ctrl-C (SIGINT) once the test runner runs, and demands exit status 130, no
    /// test process left behind, and a state file that still reads.
    func interrupt(_ executable: URL, copy: URL, launch: TestLaunch.Method) -> Outcome {
        let through = launch == .swiftTest ? "`swift test`" : "the test executable"
        let fault = "Ctrl-C during check, tests through \(through): children ended, no orphans, state intact"
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
        environment[WorkbookEnvironment.Name.root] = copy.path
        environment[WorkbookEnvironment.Name.checkScratch] = scratch.path
        environment[WorkbookEnvironment.Name.noColor] = "1"
        environment[TestLaunch.methodVariable] = launch.rawValue
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return outcome("could not start workbook: \(error)") }

        // The runner is the process that names the build and was told which testing library to run
        // (the test executable, or `swift test`'s runner) — not the compiler or linker of a build.
        let started = Date()
        while !platform.processes(mentioning: build).contains(where: { platform.commandLine(of: $0).contains(TestLaunch.swiftTestingOnly[0]) }) {
            guard process.isRunning, Date().timeIntervalSince(started) < 120 else {
                process.terminate()
                return outcome("the test runner never started")
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

extension FaultDrill {
    /// `workbook doctor` on this machine, through this platform's paths: every line ✔, or — for a
    /// line marked – (no gdb, say) — skipped, never passed.
    func doctor() -> [Outcome] {
        progress("Fault drill: `workbook doctor`…")
        let report = Doctor.check(platform: platform, folder: workbook.layout.url(Layout.scratch(.doctor)))
        return report.lines.map { line in
            let fault = "doctor: \(line.title)"
            switch line.status {
            case .passed: return Outcome(fault: fault, expected: "✔", actual: "✔ \(line.detail)", held: true)
            case .limited: return .skipped(fault, expected: "✔", because: line.detail)
            case .failed: return Outcome(fault: fault, expected: "✔", actual: "✘ \(line.detail)", held: false)
            }
        }
    }
}

import Foundation
import WorkbookCore
import WorkbookWire

/// Runs the built test binary on some exercises and grades them.
///
/// Exercises are dealt into a few batches (``processesAtOnce``), each run in one process, the
/// processes at the same time, with Swift Testing's event stream written to a file the grader names
/// and TSan's reports written to files of their own. When a run cannot say which exercise something
/// belongs to — the process crashed or hung, or a report names none of their files — the unsettled
/// exercises are run again, each in a process of its own.
///
/// Several processes rather than one: a suite's tests mostly wait (for a held queue, a deadline, a
/// blocked caller), and the synchronous tests of one process take turns on its few cooperative
/// threads, so one process's waits add up while the cores stay idle.
///
/// This is the policy (batches, isolation, locating crashes); starting processes is the
/// ``TestProcess``'s, so the policy is tested on recorded runs.
package struct TestRunner: Sendable {
    var process: any TestProcess
    var grader: Grader
    /// Seconds a process may take in all before the watchdog kills its group: a base, plus
    /// ``timeLimitPerExercise`` for each exercise whose tests run ``defaultTestsAtOnce`` side by side,
    /// and as many times that as they run fewer (see ``timeLimit(exercises:testsAtOnce:)``).
    var baseTimeLimit: Double = 30
    var timeLimitPerExercise: Double = 5
    /// Test processes run at the same time; the exercises are dealt among them in turn.
    var processesAtOnce = Self.defaultProcessesAtOnce
    /// Four: on two cores the runs are mostly waiting (Exercises/MEASUREMENTS.md, M17).
    static let defaultProcessesAtOnce = 4
    /// Test cases that may run at the same time, shared among the processes running at once: a
    /// lone process (a check of one exercise) runs that many side by side, four processes one each.
    var testsAtOnce = Self.defaultTestsAtOnce
    /// Four, measured on two cores: unbounded, four processes of side-by-side tests and their exit
    /// tests' children timed out correct answers; at two each, near misses that need two calls to
    /// meet, or that share state between calls, were caught as declared in only 18–19 runs of 20
    /// (Exercises/MEASUREMENTS.md, M18).
    static let defaultTestsAtOnce = 4

    /// Runs the tests of the build `launch` describes, exploring as many scenarios as `exploration`
    /// says, keeping each run's artifacts in `artifactsKeptIn` (``WorkbookEnvironment/keepArtifacts``).
    package init(launch: TestLaunch, exploration: Budget = .check, artifactsKeptIn: URL?) {
        var process = LaunchedTestProcess(launch: launch)
        process.exploration = exploration
        process.artifactsKeptIn = artifactsKeptIn
        self.init(process: process)
    }

    /// `learner`: the graded files as the check read them, which the grader reads instead of the
    /// disk; `nil`: each ``run(_:)`` reads the files it grades once, before its runs (the self-test's
    /// solutions and near misses).
    package init(process: any TestProcess, learner: LearnerSources? = nil) {
        self.process = process
        self.learner = learner
        self.grader = learner.map { learner in Grader(sources: process.sources, readSource: { learner.text(at: $0) }) }
            ?? Grader(sources: process.sources)
    }

    private var learner: LearnerSources?
    /// How ``run(_:)`` reads the graded files when it was given none; tests count here.
    var readFile: @Sendable (URL) -> String? = LearnerSources.readFile

    /// Grades `exercises`, isolating where needed; returns verdicts in the order given.
    package func run(_ exercises: [ExerciseRef]) throws -> [ExerciseVerdict] {
        guard !exercises.isEmpty else { return [] }
        // Without a check's reading, the graded files are read here, once, like a check reads them:
        // every race of every run, and the judging of each file's form, look at the same text.
        guard learner != nil || process.packageRoot == nil else { return try readingOnce(exercises).run(exercises) }
        let batches = Self.deal(exercises, into: processesAtOnce)
        let graded = try atOnce(batches, width: processesAtOnce) { batch in
            let artifacts = try runOnce(batch, alongside: batches.count)
            let outcome = grader.grade(batch, artifacts)
            return (verdicts: locatingCrashes(outcome.verdicts, artifacts, alone: batch.count == 1), isolate: outcome.isolate)
        }
        var verdicts = graded.flatMap(\.verdicts)
        let isolated = graded.flatMap(\.isolate)
        verdicts += try atOnce(isolated, width: processesAtOnce) { item in
            let run = try runOnce([item], alongside: min(isolated.count, processesAtOnce))
            return locatingCrashes(grader.grade([item], run).verdicts, run, alone: true)
        }.flatMap { $0 }
        let settled = exercises.compactMap { item in verdicts.first { $0.exercise.id == item.exercise.id } }
        // The graded files' own form has the last word (a recorded run has no files to judge).
        guard let root = process.packageRoot else { return settled }
        return settled.map { grader.judgingForm($0, in: root) }
    }

    /// This runner with `exercises`' files read once from the package ``TestProcess/packageRoot``.
    private func readingOnce(_ exercises: [ExerciseRef]) -> TestRunner {
        let root = process.packageRoot ?? URL(fileURLWithPath: ".")
        let files = exercises.map { Layout.exerciseFile($0.chapter, $0.exercise, in: grader.sources) }
        let readFile = self.readFile
        let read = LearnerSources(files, read: { readFile(root.appendingPathComponent($0)) })
        var runner = self
        runner.learner = read
        runner.grader.readSource = { read.text(at: $0) }
        return runner
    }

    /// `exercises` dealt in turn into at most `count` batches, each keeping the order given.
    static func deal<Item>(_ exercises: [Item], into count: Int) -> [[Item]] {
        let batches = max(1, min(count, exercises.count))
        return (0..<batches).map { first in stride(from: first, to: exercises.count, by: batches).map { exercises[$0] } }
    }

    /// One process over `exercises`, among `processes` running at the same time (itself included),
    /// with its share of ``testsAtOnce``.
    func runOnce(_ exercises: [ExerciseRef], alongside processes: Int) throws -> RunArtifacts {
        let share = max(1, testsAtOnce / max(1, processes))
        return try process.run(filters: exercises.map { SuiteID($0.chapter, $0.exercise).filter },
                        timeLimit: timeLimit(exercises: exercises.count, testsAtOnce: share),
                        testsAtOnce: share,
                        label: exercises.map(\.exercise.id).joined(separator: "+"))
    }

    /// The watchdog's bound for a process over `exercises` exercises that runs `testsAtOnce` of their
    /// test cases side by side. A suite's tests mostly wait (a held queue, a deadline), and one at a
    /// time their waits add up: a correct 2.3 that appends with `sync`, whose `found` sits out every
    /// hold of the library's queue, took 36.3 s one test at a time beside three other processes, the
    /// reference solution 4.6 s (Exercises/MEASUREMENTS.md, M22). So an exercise's share grows as
    /// its tests run fewer at once: 35 s for a lone check's process, 50 s for one of four. The bound
    /// is the last resort, not how a hang is found: every wait in a suite is bounded, and a run whose
    /// event stream stays quiet is stopped after ``LaunchedTestProcess/quietLimit``.
    func timeLimit(exercises: Int, testsAtOnce: Int) -> Double {
        baseTimeLimit + timeLimitPerExercise * Double(exercises) * Double(Self.defaultTestsAtOnce) / Double(max(1, testsAtOnce))
    }

    /// Points each crashed exercise at the learner's line that trapped (see ``TestProcess/crashStack(filter:inChild:learnerFile:after:)``).
    ///
    /// A crash in an exit test's child process (the suites run code that may trap there) is found by
    /// running that one test again; a crash of the test process itself, only when that process ran
    /// the exercise alone (otherwise the exercise is isolated and run alone next).
    private func locatingCrashes(_ verdicts: [ExerciseVerdict], _ run: RunArtifacts, alone: Bool) -> [ExerciseVerdict] {
        verdicts.map { verdict in
            guard verdict.kind == .crash else { return verdict }
            let suite = SuiteID(verdict.chapter, verdict.exercise)
            let learnerFile = "/" + Layout.exerciseFile(verdict.chapter, verdict.exercise, in: grader.sources)
            if case .signaled = run.termination {
                guard alone else { return verdict }
                let stack = process.crashStack(filter: suite.filter, inChild: false,
                                               learnerFile: learnerFile, after: run)
                return stack.map { verdict.locatingCrash($0) } ?? verdict
            }
            guard let issue = run.events.issues.first(where: { $0.kind == .crash && suite.hasTest($0.testID) }),
                  let stack = process.crashStack(filter: TestID(issue.testID).filter, inChild: true, learnerFile: learnerFile, after: run)
            else { return verdict }
            return verdict.locatingCrash(stack, test: run.events.names[issue.testID])
        }
    }
}

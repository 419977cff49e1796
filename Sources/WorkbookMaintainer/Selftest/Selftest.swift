import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

/// The maintainers' proof, like rustlings' `dev check` but under TSan and repeated: every starter
/// fails every run with the kind its manifest names, in that exercise; every solution passes every
/// run with zero TSan reports.
package struct Selftest: Sendable {
    /// One line of the table: an exercise, its starter's and its solution's record over the runs.
    struct Row: Sendable {
        var chapter: Chapter
        var exercise: Exercise
        /// Runs in which the starter failed with the expected kind in its own file.
        var starterCaught = 0
        /// What the starter showed in the runs it was not caught as expected.
        var starterMisses: [String] = []
        /// Runs in which the solution passed with no report.
        var solutionClean = 0
        var solutionFailures: [String] = []
        var starterSeconds: [Double] = []
        var solutionSeconds: [Double] = []
    }

    var workbook: Workbook
    /// Whose `swift` builds, and whose ways of starting tests apply (the fault drill also tries Darwin's).
    var platform: Platform
    /// Where each test run's artifacts are kept (``WorkbookEnvironment/keepArtifacts``); `nil`: nowhere.
    package var artifactsKeptIn: URL?
    var runs: Int
    var chapters: [Chapter]
    var progress: @Sendable (String) -> Void
    /// Whether to run the end-to-end fault drill (see ``FaultDrill``).
    var drill: Bool
    /// Whether to prove the near-miss corpus (see ``CorpusProof``).
    package var corpus = true
    /// Runs of every near miss and alternative. One by default: the corpus is large (13 rounds, each
    /// an incremental TSan build and a run of every swapped exercise), and each entry was proven over
    /// several runs when it was added.
    package var corpusRuns = 1
    /// Where to keep the TSan report of every race a starter or a near miss is graded (`name.log`),
    /// or `nil`: the fixtures of `explain`'s tests are recorded this way.
    package var recordRaces: URL?
    /// The `workbook` executable, for the drill's Ctrl-C test; `nil` skips that test.
    package var workbookExecutable: URL?
    /// Only these near misses and alternatives (by name, or by a prefix of it such as `1.3-` or
    /// `5.1-alt`): the corpus alone is proven, without the unit tests, the suites' rows or the drills —
    /// what a maintainer runs after adding an entry.
    package var entries: [String]?

    package init(workbook: Workbook, platform: Platform, runs: Int, chapters: [Chapter]? = nil, drill: Bool = true,
                progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.workbook = workbook
        self.platform = platform
        self.runs = runs
        self.chapters = chapters ?? workbook.chapters
        self.drill = drill
        self.progress = progress
    }

    /// The outcome of the whole self-test.
    package struct Report: Sendable {
        var rows: [Row]
        var runs: Int
        /// Unit tests of the grading engine: passed, and what failed.
        var unitTestsPassed: Bool
        var unitTestFailures: [String]
        /// Chapters that did not compile (from Exercises or Solutions).
        var buildProblems: [String]
        /// The near misses and correct alternatives, each with its record over the runs.
        var corpus: [CorpusProof.Outcome] = []
        /// Corpus files that do not follow the format.
        var corpusProblems: [String] = []
        /// The fault drill's expectations (empty when it was skipped).
        var drill: [FaultDrill.Outcome] = []
        var seconds: Double

        var passedCount: Int {
            rows.reduce(0) { $0 + ($1.starterCaught == runs ? 1 : 0) + ($1.solutionClean == runs ? 1 : 0) }
                + (unitTestsPassed ? 1 : 0) + drill.filter { $0.held && !$0.skipped }.count + corpus.filter(\.proven).count
        }
        /// Drill checks this platform could not run: never counted as passed, nor as failed.
        var skippedCount: Int { drill.filter(\.skipped).count }
        var failedCount: Int {
            rows.count * 2 + 1 + drill.count + corpus.count - passedCount - skippedCount + buildProblems.count + corpusProblems.count
        }
        package var succeeded: Bool { failedCount == 0 }
    }

    package func run() throws -> Report {
        if let entries { return try runEntries(entries) }
        let start = Date()
        var problems: [String] = []
        let items = chapters.flatMap { chapter in chapter.exercises.map { ExerciseRef(chapter: chapter, exercise: $0) } }
        var rows = items.map { Row(chapter: $0.chapter, exercise: $0.exercise) }

        // Every piece in place first (what `selftest --static` checks alone); a piece still to write
        // fails the proof too.
        problems += StaticCheck(workbook: workbook, chapters: chapters).run().map(\.description)
        progress("Building the solutions under the Thread Sanitizer…")
        var solutionBuilder = Builder(workbook: workbook, platform: platform, sources: .solutions,
                                      scratchPath: workbook.layout.url(Layout.scratch(.selftestSolutions)),
                                      progress: progress)
        solutionBuilder.remembersExclusions = false
        // The engine's unit tests run from this build.
        solutionBuilder.withEngine = true
        let solutions = try solutionBuilder.build(chapters)
        problems += solutions.broken.map { "Solutions of \($0.chapter.shortName) do not compile: \($0.errors.first.map { $0.summary() } ?? "")" }
        problems += solutions.excluded.map { "The solution of \($0.exercise.id) does not compile: \($0.errors.first.map { $0.summary() } ?? "")" }

        var unitFailures: [String] = []
        var unitPassed = false
        if let launch = solutions.launch {
            progress("Running the grading engine's unit tests…")
            (unitPassed, unitFailures) = try runUnitTests(launch)
        } else {
            unitFailures = ["the test binary was not built"]
        }

        progress("Building the starters under the Thread Sanitizer…")
        // Every starter that must not compile is proven by compiling it, never from a note.
        var starterBuilder = Builder(workbook: workbook, platform: platform, sources: .exercises,
                                     scratchPath: workbook.layout.url(Layout.scratch(.selftestExercises)),
                                     progress: progress)
        starterBuilder.remembersExclusions = false
        let starters = try starterBuilder.build(chapters)
        problems += starters.broken.map { "Starters of \($0.chapter.shortName) do not compile: \($0.errors.first.map { $0.summary() } ?? "")" }

        // A starter that must not compile is left out of its chapter's build, in its own file only,
        // while the chapter's other starters are built and run (and must fail as they declare).
        for exclusion in starters.excluded {
            guard let index = rows.firstIndex(where: { $0.exercise.id == exclusion.exercise.id }) else { continue }
            if exclusion.isCaughtAsExpected {
                rows[index].starterCaught = runs
            } else {
                let error = exclusion.errors.first.map { $0.summary(.name) } ?? ""
                rows[index].starterMisses.append("does not compile: \(error)")
            }
        }

        for run in 1...runs {
            progress("Run \(run) of \(runs)…")
            if let launch = solutions.launch {
                let built = items.filter { solutions.contains($0.chapter, $0.exercise) }
                for verdict in try TestRunner(launch: launch, exploration: .selftest, artifactsKeptIn: artifactsKeptIn).run(built) {
                    guard let index = rows.firstIndex(where: { $0.exercise.id == verdict.exercise.id }) else { continue }
                    rows[index].solutionSeconds.append(verdict.seconds)
                    if verdict.passed {
                        rows[index].solutionClean += 1
                    } else {
                        rows[index].solutionFailures.append(Self.describe(verdict))
                    }
                }
            }
            if let launch = starters.launch {
                let built = items.filter { starters.contains($0.chapter, $0.exercise) }
                for verdict in try TestRunner(launch: launch, exploration: .selftest, artifactsKeptIn: artifactsKeptIn).run(built) {
                    guard let index = rows.firstIndex(where: { $0.exercise.id == verdict.exercise.id }) else { continue }
                    rows[index].starterSeconds.append(verdict.seconds)
                    let undrawn = Self.undrawnRace(verdict, in: workbook, recordingAs: "starter-\(verdict.exercise.id)", to: recordRaces)
                    if verdict.isCaughtAsExpected, undrawn == nil {
                        rows[index].starterCaught += 1
                    } else if let undrawn {
                        rows[index].starterMisses.append(undrawn)
                    } else {
                        rows[index].starterMisses.append(verdict.passed ? "passed" : Self.describe(verdict))
                    }
                }
            }
        }
        var corpusOutcomes: [CorpusProof.Outcome] = []
        var corpusProblems: [String] = []
        if corpus {
            let (entries, problems) = workbook.corpus(of: chapters)
            corpusProblems = problems
            var proof = CorpusProof(workbook: workbook, platform: platform, entries: entries, runs: corpusRuns, progress: progress)
            proof.recordRaces = recordRaces
            proof.artifactsKeptIn = artifactsKeptIn
            corpusOutcomes = try proof.run()
        }
        var faultDrill = FaultDrill(workbook: workbook, platform: platform, progress: progress)
        faultDrill.workbookExecutable = workbookExecutable
        faultDrill.artifactsKeptIn = artifactsKeptIn
        var drillOutcomes = drill ? try faultDrill.run() : []
        if drill, let workbookExecutable {
            drillOutcomes += try ClassroomDrill(workbook: workbook, platform: platform, executable: workbookExecutable, progress: progress).run()
        }
        return Report(rows: rows, runs: runs, unitTestsPassed: unitPassed, unitTestFailures: unitFailures,
                      buildProblems: problems, corpus: corpusOutcomes, corpusProblems: corpusProblems,
                      drill: drillOutcomes, seconds: Date().timeIntervalSince(start))
    }

    /// Why `explain` cannot draw a race verdict (see ``RaceTimeline/problem(width:)``), or `nil` — for
    /// every verdict that is not a race too. With `folder`, the race's report is kept there as
    /// `name.log`: the recorded reports `explain`'s unit tests draw — and beside it, as
    /// `name.sha256`, the SHA-256 of the file it was recorded from (``recordingDigestExtension``), so
    /// that a unit test can tell a recording whose file has changed since.
    static func undrawnRace(_ verdict: ExerciseVerdict, in workbook: Workbook, recordingAs name: String, to folder: URL?) -> String? {
        guard verdict.kind == .race, let timeline = RaceTimeline.of(verdict, in: workbook) else { return nil }
        if let folder {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? timeline.report.raw.write(to: folder.appendingPathComponent(name + ".log"), atomically: true, encoding: .utf8)
            if let source = timeline.source {
                try? (recordingDigest(of: source) + "\n")
                    .write(to: folder.appendingPathComponent(name + "." + recordingDigestExtension), atomically: true, encoding: .utf8)
            }
        }
        return timeline.problem()
    }

    /// The extension of the file beside a recorded report that holds its source's digest.
    static let recordingDigestExtension = "sha256"

    /// The digest a recording keeps of the file it was recorded from: SHA-256 of its UTF-8 text.
    static func recordingDigest(of source: String) -> String {
        SHA256.hex(Data(source.utf8))
    }

    static func describe(_ verdict: ExerciseVerdict) -> String {
        let first = verdict.findings.headline
        return "\(verdict.kind?.label ?? "failed"): \(first?.message.prefix(160) ?? "a test failed")"
    }

    private func runUnitTests(_ launch: TestLaunch) throws -> (Bool, [String]) {
        var process = LaunchedTestProcess(launch: launch.engineTests)
        process.quietLimit = 120
        process.artifactsKeptIn = artifactsKeptIn
        let run = try process.run(filters: Layout.engineTestSuites, timeLimit: 600, testsAtOnce: 1, label: "unit-tests")
        let stream = run.events
        var failures = stream.issues.map { issue in "\(stream.names[issue.testID] ?? issue.testID): \(issue.summary)" }
        failures += run.reports.map { "TSan: \($0.summaryLine ?? $0.title)" }
        let ran = stream.ended.keys.filter { TestID($0).isTest }.count
        if ran == 0 { failures.append("no unit test ran (\(run.termination.description))") }
        if !stream.runEnded { failures.append("the unit tests did not finish (\(run.termination.description))") }
        return (failures.isEmpty && run.termination == .exited(0), failures)
    }
}

extension Selftest {
    /// The corpus entries `names` select, proven alone (see ``entries``).
    func runEntries(_ names: [String]) throws -> Report {
        let start = Date()
        let (all, problems) = workbook.corpus(of: chapters)
        let chosen = all.filter { entry in names.contains { entry.name == $0 || entry.name.hasPrefix($0) } }
        let unknown = names.filter { name in !all.contains { $0.name == name || $0.name.hasPrefix(name) } }
        var proof = CorpusProof(workbook: workbook, platform: platform, entries: chosen, runs: corpusRuns, progress: progress)
        proof.recordRaces = recordRaces
        proof.artifactsKeptIn = artifactsKeptIn
        let outcomes = try proof.run()
        return Report(rows: [], runs: runs, unitTestsPassed: true, unitTestFailures: [],
                      buildProblems: unknown.map { "No near miss or alternative is called '\($0)' (or starts so)." },
                      corpus: outcomes, corpusProblems: problems, drill: [], seconds: Date().timeIntervalSince(start))
    }
}

import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

/// Proves the near-miss corpus (see ``CorpusEntry``): in a copy of the package whose exercise files
/// are the solutions, each near miss is swapped in and must be graded with the kind it declares, in
/// every run; each correct alternative must pass with no TSan report, in every run.
///
/// Exercises are graded independently, so one entry per exercise is swapped in at a time: round *k*
/// holds the *k*-th entry of every exercise, and costs one incremental build. An entry that must not
/// compile takes a round of its own in its chapter: the builder leaves out only its exercise when
/// the errors stay in its file, but errors that reach other code stop the whole chapter.
struct CorpusProof: Sendable {
    var workbook: Workbook
    /// Whose `swift` builds the copies, and whose ways of starting tests apply.
    var platform: Platform
    var entries: [CorpusEntry]
    var runs: Int
    var progress: @Sendable (String) -> Void
    /// Where to keep the TSan report of each near miss graded a race (see ``Selftest/recordRaces``).
    var recordRaces: URL?
    /// Where each test run's artifacts are kept (``WorkbookEnvironment/keepArtifacts``); `nil`: nowhere.
    var artifactsKeptIn: URL?

    init(workbook: Workbook, platform: Platform, entries: [CorpusEntry], runs: Int,
         progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.workbook = workbook
        self.platform = platform
        self.entries = entries
        self.runs = runs
        self.progress = progress
    }

    /// How one entry fared.
    struct Outcome: Sendable {
        var entry: CorpusEntry
        /// Runs graded as the entry declares.
        var held = 0
        var runs = 0
        /// What the grader said in the runs that did not hold.
        var misses: [String] = []
        var proven: Bool { runs > 0 && held == runs }
    }

    /// The rounds, each a set of entries that can be swapped in together.
    static func rounds(_ entries: [CorpusEntry]) -> [[CorpusEntry]] {
        var rounds: [[CorpusEntry]] = []
        let chapters = entries.reduce(into: [String]()) { if !$0.contains($1.chapter) { $0.append($1.chapter) } }
        for chapter in chapters {
            let mine = entries.filter { $0.chapter == chapter }
            let alone = mine.filter { $0.expectation == .fails(.compile) }
            var queues = mine.filter { $0.expectation != .fails(.compile) }
                .reduce(into: [(String, [CorpusEntry])]()) { queues, entry in
                    if let index = queues.firstIndex(where: { $0.0 == entry.exerciseID }) {
                        queues[index].1.append(entry)
                    } else {
                        queues.append((entry.exerciseID, [entry]))
                    }
                }
            var chapterRounds: [[CorpusEntry]] = []
            while queues.contains(where: { !$0.1.isEmpty }) {
                chapterRounds.append(queues.compactMap { $0.1.first })
                queues = queues.map { ($0.0, Array($0.1.dropFirst())) }
            }
            chapterRounds += alone.map { [$0] }
            for (index, round) in chapterRounds.enumerated() {
                if index < rounds.count { rounds[index] += round } else { rounds.append(round) }
            }
        }
        return rounds
    }

    func run() throws -> [Outcome] {
        var outcomes = entries.map { Outcome(entry: $0) }
        guard !entries.isEmpty else { return outcomes }
        let base = workbook.layout.url(Layout.scratch(.selftestCorpus))
        let mirror = PackageMirror(source: workbook.root, copy: base.appendingPathComponent("package"))
        try mirror.sync()
        let copied = try Workbook(root: mirror.copy)
        let rounds = Self.rounds(entries)

        for (number, round) in rounds.enumerated() {
            progress("Near misses: round \(number + 1) of \(rounds.count) — \(round.map(\.name).joined(separator: ", "))")
            // Every exercise file is its solution, but for this round's entries.
            for item in copied.allExercises {
                let (chapter, exercise) = (item.chapter, item.exercise)
                let entry = round.first { $0.chapter == chapter.name && $0.exerciseID == exercise.id }
                try mirror.swap(Layout.exerciseFile(chapter, exercise),
                                with: entry?.file ?? workbook.solutionFile(chapter, exercise))
            }
            let build = try Builder(workbook: copied, platform: platform, sources: .exercises,
                                    scratchPath: base.appendingPathComponent("build")).build()
            var items: [ExerciseRef] = []
            for entry in round {
                guard let index = outcomes.firstIndex(where: { $0.entry == entry }) else { continue }
                // Its own file does not compile (the rest of the chapter was built without it), or its
                // whole chapter does not.
                let errors = build.excluded.first(where: { $0.chapter.name == entry.chapter && $0.exercise.id == entry.exerciseID })?.errors
                    ?? build.broken.first(where: { $0.chapter.name == entry.chapter })?.errors
                if let errors {
                    outcomes[index].runs = runs
                    if entry.expectation == .fails(.compile) {
                        outcomes[index].held = runs
                    } else {
                        outcomes[index].misses.append("does not compile: \(errors.first.map { $0.summary(.name) } ?? "")")
                    }
                } else if let item = copied.allExercises.first(where: { $0.chapter.name == entry.chapter && $0.exercise.id == entry.exerciseID }) {
                    items.append(item)
                }
            }
            guard let launch = build.launch, !items.isEmpty else { continue }
            let runner = TestRunner(launch: launch, exploration: .selftest, artifactsKeptIn: artifactsKeptIn)
            for _ in 0..<runs {
                for verdict in try runner.run(items) {
                    guard let index = outcomes.firstIndex(where: { $0.entry.chapter == verdict.chapter.name && $0.entry.exerciseID == verdict.exercise.id && round.contains($0.entry) }) else { continue }
                    outcomes[index].runs += 1
                    let undrawn = Selftest.undrawnRace(verdict, in: copied, recordingAs: outcomes[index].entry.name, to: recordRaces)
                    if Self.holds(verdict, outcomes[index].entry.expectation), undrawn == nil {
                        outcomes[index].held += 1
                    } else if let undrawn {
                        outcomes[index].misses.append(undrawn)
                    } else {
                        outcomes[index].misses.append(verdict.passed ? "passed" : Selftest.describe(verdict))
                    }
                }
            }
        }
        return outcomes
    }

    /// Whether a verdict is what an entry declares: a pass for an alternative; for a near miss the
    /// declared kind first, and for a race, a race reported in the exercise's own file.
    static func holds(_ verdict: ExerciseVerdict, _ expectation: CorpusEntry.Expectation) -> Bool {
        switch expectation {
        case .passes:
            return verdict.passed
        case let .fails(kind):
            return verdict.isCaught(as: kind)
        }
    }
}

import Foundation
import WorkbookWire

/// Turns a run's structured results into verdicts per exercise. Pure: no processes, no clock.
package struct Grader: Sendable {
    /// Which code was graded: the learner's exercises or the solutions.
    package var sources: SourceSet
    /// Reads a source file (to recognise races TSan cannot judge); `nil` when unreadable.
    package var readSource: @Sendable (String) -> String?

    package init(sources: SourceSet = .exercises,
                readSource: @escaping @Sendable (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }) {
        self.sources = sources
        self.readSource = readSource
    }

    /// The outcome of grading one batch.
    package struct Outcome: Sendable {
        /// Exercises whose verdict this run settles.
        package var verdicts: [ExerciseVerdict]
        /// Exercises this run cannot settle (the process died, or a report names none of the
        /// batch's files): run each of them again on its own.
        package var isolate: [ExerciseRef]
    }

    /// Grades the exercises of `batch` from one run's artifacts.
    package func grade(_ batch: [ExerciseRef], _ run: RunArtifacts) -> Outcome {
        let alone = batch.count == 1
        var findings: [String: [Finding]] = [:]
        var unattributed: [TSanReport] = []

        if let fatal = Self.sanitizerFailure(in: run.output, issues: run.events.issues.flatMap(\.messages)) {
            let verdicts = batch.map { item in
                ExerciseVerdict(chapter: item.chapter, exercise: item.exercise,
                                findings: [Finding(kind: .crash, message: fatal.message, detail: fatal.detail)],
                                testsRun: 0, testsFailed: 0, seconds: run.seconds)
            }
            return Outcome(verdicts: verdicts, isolate: [])
        }

        var notes: [String: [String]] = [:]
        let sawWrong = Set(run.events.issues.filter { $0.kind == .wrong }
            .compactMap { owner(of: $0.testID, in: batch)?.exercise.id })
        for report in run.reports {
            if let (item, note) = falseAlarm(report, batch) {
                if !notes[item.exercise.id, default: []].contains(note) { notes[item.exercise.id, default: []].append(note) }
            } else if let (item, finding) = raceFinding(report, batch, sawWrong: sawWrong)
                        ?? orderingFinding(report, batch, testNames: run.events.names) {
                var mine = findings[item.exercise.id, default: []]
                // TSan reports each pair of stacks once; the same two lines often race from several
                // pairs of threads. Say it once, and how often.
                if let index = mine.firstIndex(where: { $0.sameRace(as: finding) && $0.test == finding.test }) {
                    mine[index].absorb(finding)
                } else {
                    mine.append(finding)
                }
                findings[item.exercise.id] = mine
            } else {
                unattributed.append(report)
            }
        }
        for issue in run.events.issues {
            guard let item = owner(of: issue.testID, in: batch) else { continue }
            var finding = Finding(
                kind: issue.kind,
                message: Self.strippingMarker(issue.summary),
                file: issue.file.map(Layout.trimmed), line: issue.line,
                test: run.events.names[issue.testID],
                detail: issue.messages.joined(separator: "\n"))
            finding.column = issue.column
            finding.testDeclared = SourcePlace(testID: issue.testID)
            findings[item.exercise.id, default: []].append(finding)
        }

        let processDied = !run.events.runEnded || run.termination.exitCode == nil
        var verdicts: [ExerciseVerdict] = []
        var isolate: [ExerciseRef] = []
        for item in batch {
            let tests = run.events.started.filter { TestID($0).isTest && owner(of: $0, in: [item]) != nil }
            let ended = tests.filter { run.events.ended[$0] != nil }
            let failed = ended.filter { run.events.ended[$0] == false }
            var found = findings[item.exercise.id] ?? []
            // In the order the suite declares them, not the order they happened to start in.
            let unfinished = tests.filter { run.events.ended[$0] == nil }
                .sorted(by: SourcePlace.declaredFirst)

            if processDied && (tests.isEmpty || !unfinished.isEmpty) {
                guard alone else { isolate.append(item); continue }
                found.append(deathFinding(run, unfinished: unfinished.map { run.events.names[$0] ?? $0 }))
            } else if !unattributed.isEmpty && !alone {
                isolate.append(item); continue
            } else if !unattributed.isEmpty {
                found += unattributed.map { report in
                    var finding = Finding(kind: .race,
                                          message: report.namesAnyFile ? Says.raceOutsideFile(report.title, item.exercise)
                                                                       : Says.raceUnsymbolized(report.title, item.exercise),
                                          detail: report.raw)
                    finding.report = report
                    return finding
                }
            }
            if tests.isEmpty && found.isEmpty {
                found.append(Finding(kind: .crash, message: Says.suiteNotFound(item.chapter, item.exercise)))
            }
            var verdict = ExerciseVerdict(
                chapter: item.chapter, exercise: item.exercise, findings: found,
                testsRun: ended.count, testsFailed: failed.count,
                seconds: run.events.seconds(of: SuiteID(item.chapter, item.exercise).name) ?? run.seconds)
            verdict.notes = notes[item.exercise.id] ?? []
            verdicts.append(verdict)
        }
        return Outcome(verdicts: verdicts, isolate: isolate)
    }

    /// `verdict` (every run of it graded) with what the failing pattern rules find in the graded
    /// file itself, in the package at `packageRoot` — a timed wait whose result is never looked at,
    /// or that gives up where the contract has no timeout; a sanitizer hook — which no run can show.
    package func judgingForm(_ verdict: ExerciseVerdict, in packageRoot: URL) -> ExerciseVerdict {
        let file = Layout.exerciseFile(verdict.chapter, verdict.exercise, in: sources)
        guard let source = readSource(packageRoot.appendingPathComponent(file).path) else { return verdict }
        var verdict = verdict
        // Under TSan a form it cannot judge runs as it would not run without it (a barrier lost, a
        // fence unseen), so what the run found says nothing about the learner's code: the rule's
        // sentence, at its line, stands instead.
        if PatternCheck.setsAsideRuns(in: source), !verdict.findings.isEmpty {
            verdict.findings.removeAll()
            verdict.notes.append(Says.runSetAside)
        }
        verdict.findings += PatternCheck.failures(in: source, file: file, noDeadline: verdict.exercise.takesNoDeadline)
        return verdict
    }

    // MARK: Tests and exercises

    private func owner(of testID: String, in batch: [ExerciseRef])
        -> ExerciseRef?
    {
        batch.first { SuiteID($0.chapter, $0.exercise).owns(testID) }
    }
}

extension Termination {
    /// The exit status, if the process exited by itself.
    package var exitCode: Int32? {
        if case let .exited(code) = self { return code }
        return nil
    }
}

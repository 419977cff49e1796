import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

package extension Selftest.Report {
    /// The table (chapter × exercise × runs) and the closing `N passed, N failed` line.
    func rendered(style: Style) -> String {
        var lines: [String] = []
        lines.append(style.bold("Self-test: \(runs) run\(runs == 1 ? "" : "s") of every chapter under the Thread Sanitizer"))
        lines.append("")
        let header = pad("exercise", 8) + pad("starter must fail as", 22) + pad("starter caught", 16) + pad("solution clean", 16) + "time/run (starter, solution)"
        lines.append(style.dim(header))
        var chapter = -1
        for row in rows {
            if row.chapter.number != chapter {
                chapter = row.chapter.number
                lines.append(style.bold("Chapter \(row.chapter.number) — \(row.chapter.title)"))
            }
            let caught = "\(row.starterCaught)/\(runs)"
            let clean = "\(row.solutionClean)/\(runs)"
            let starterMark = row.starterCaught == runs ? style.pass : style.fail
            let solutionMark = row.solutionClean == runs ? style.pass : style.fail
            let times = "\(Self.median(row.starterSeconds)), \(Self.median(row.solutionSeconds))"
            lines.append(pad(row.exercise.id, 8) + pad(row.exercise.expectedFailure.label, 22)
                         + starterMark + " " + pad(caught, 14) + solutionMark + " " + pad(clean, 14) + times)
            for miss in Set(row.starterMisses).sorted() {
                lines.append(style.red("         starter not caught as \(row.exercise.expectedFailure.label): \(miss)"))
            }
            for failure in Set(row.solutionFailures).sorted() {
                lines.append(style.red("         solution failed: \(failure)"))
            }
        }
        lines.append("")
        lines.append((unitTestsPassed ? style.pass : style.fail) + " grading engine unit tests")
        for failure in unitTestFailures.prefix(20) { lines.append(style.red("    \(failure)")) }
        for problem in buildProblems { lines.append(style.fail + " " + problem) }
        if !corpus.isEmpty || !corpusProblems.isEmpty {
            lines.append("")
            let corpusRuns = corpus.map(\.runs).max() ?? 0
            lines.append(style.bold("Near misses and correct alternatives") + style.dim(" (Tests/NearMisses, each swapped over its exercise, \(corpusRuns) run\(corpusRuns == 1 ? "" : "s") each)"))
            let ids = corpus.reduce(into: [String]()) { if !$0.contains($1.entry.exerciseID) { $0.append($1.entry.exerciseID) } }
            for id in ids {
                let mine = corpus.filter { $0.entry.exerciseID == id }
                let misses = mine.filter { $0.entry.expectation != .passes }
                let alternatives = mine.filter { $0.entry.expectation == .passes }
                let mark = mine.allSatisfy(\.proven) ? style.pass : style.fail
                var line = "\(mark) \(pad(id, 6))\(misses.filter(\.proven).count)/\(misses.count) near misses caught as declared"
                if !alternatives.isEmpty { line += ", \(alternatives.filter(\.proven).count)/\(alternatives.count) alternatives passed" }
                lines.append(line)
                for outcome in mine where !outcome.proven {
                    let expected = outcome.entry.expectation == .passes ? "pass" : "fail as \(Self.label(outcome.entry.expectation))"
                    let said = Set(outcome.misses).sorted().joined(separator: "; ")
                    lines.append(style.red("         \(outcome.entry.name) must \(expected), held \(outcome.held)/\(outcome.runs): \(said)"))
                }
            }
            for problem in corpusProblems { lines.append(style.fail + " " + problem) }
        }
        if !drill.isEmpty {
            lines.append("")
            lines.append(style.bold("Fault drill") + style.dim(" (a copy of the package with faulty exercises swapped in, graded by `check`)"))
            for outcome in drill {
                if outcome.skipped {
                    lines.append(style.dim("– \(pad(outcome.expected, 14))\(outcome.fault) — skipped on this platform: \(outcome.actual)"))
                    continue
                }
                let mark = outcome.held ? style.pass : style.fail
                let actual = outcome.held ? "" : style.red(" — got \(outcome.actual)")
                lines.append("\(mark) \(pad(outcome.expected, 14))\(outcome.fault)\(actual)")
            }
        }
        lines.append("")
        lines.append(String(format: "Took %.0f s.", seconds))
        lines.append("\(passedCount) passed, \(failedCount) failed" + (skippedCount > 0 ? ", \(skippedCount) skipped" : ""))
        return lines.joined(separator: "\n")
    }

    static func label(_ expectation: CorpusEntry.Expectation) -> String {
        if case let .fails(kind) = expectation { return kind.label }
        return "pass"
    }

    static func median(_ values: [Double]) -> String {
        guard !values.isEmpty else { return "–" }
        let sorted = values.sorted()
        return String(format: "%.1f s", sorted[sorted.count / 2])
    }
}

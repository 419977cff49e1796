import Foundation

/// The sentences of `check`'s report to a learner (``CheckReport/rendered(style:verbose:workbook:width:inFull:)``).
extension Says {
    /// After a passing exercise graded more than once: " (3 of 3 runs)"; nothing for one run.
    static func passedEveryRun(_ runs: Int) -> String {
        runs > 1 ? " (\(runs) of \(runs) runs)" : ""
    }

    /// How often an exercise graded more than once failed, and how: `outcome` as "data race 2, hang 1".
    static func failedRuns(_ failed: Int, of runs: Int, outcome: String) -> String {
        "failed in \(failed) of \(runs) runs (\(outcome))"
    }

    /// What a finding's further reports add to it: how many more, and the other lines they named.
    static func repeats(_ finding: Finding) -> String {
        var again = finding.repeats == 0 ? ""
            : finding.kind == .race ? " TSan reported \(finding.repeats + 1) races in this file"
            : " \(finding.repeats) more test\(finding.repeats == 1 ? "" : "s") crashed too"
        if !finding.otherLines.isEmpty {
            again += ", also at line\(finding.otherLines.count == 1 ? "" : "s") \(finding.otherLines.map(String.init).joined(separator: ", "))"
        }
        return again.isEmpty ? "" : again + "."
    }

    /// The findings left out of a report without `--verbose`.
    static func moreFindings(_ count: Int) -> String {
        "      … and \(count) more (--verbose shows all, with the raw reports)"
    }

    /// Where to go next after a failing exercise; after a race, the drawing of it too.
    static func nextSteps(file: String, lesson: String, exercise: String, race: Bool) -> String {
        "edit \(file) · read \(lesson) · \(command("hint \(exercise)"))" + (race ? " · \(command("explain \(exercise)"))" : "")
    }

    /// The report's last line: how many exercises pass, and how long the check took.
    static func passing(_ passing: Int, of total: Int, seconds: Double) -> String {
        "\(passing) of \(total) exercise\(total == 1 ? "" : "s") pass." + String(format: " (%.1f s)", seconds)
    }

    /// The label before a warning: the compiler's, or the pattern check's.
    static func warningLabel(rule: String) -> String {
        rule == "compiler" ? "compiler warning:" : "warning:"
    }
}

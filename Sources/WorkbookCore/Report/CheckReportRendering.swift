import Foundation

package extension CheckReport {
    /// The learner's view: per chapter and exercise ✔ or ✘ with the reason in plain words, wrapped
    /// at `width` columns, and each failure's place as the compiler writes one (`path:line:col: error:
    /// …`, unwrapped, its paths as `paths` says). Exercises for which `inFull` is false get their first line only.
    func rendered(style: Style, verbose: Bool, workbook: Workbook, width: Int = 100, paths: PathStyle = .fromPackageRoot,
                         inFull: (Result) -> Bool = { _ in true }) -> String {
        func wrap(_ text: String, indent: String = "") -> String { WorkbookCore.wrap(text, indent: indent, width: width) }
        var lines: [String] = []
        var chapterNumber = -1
        for result in results {
            if result.chapter.number != chapterNumber {
                chapterNumber = result.chapter.number
                if !lines.isEmpty { lines.append("") }
                lines.append(style.bold("Chapter \(result.chapter.number) — \(result.chapter.title)"))
            }
            let exercise = result.exercise
            let file = Layout.exerciseFile(result.chapter, exercise)
            func addNotesAndWarnings() {
                for note in result.notes { lines.append(wrap("note: " + note, indent: "      ")) }
                for warning in result.warnings {
                    lines.append(wrap(style.yellow(Says.warningLabel(rule: warning.rule)) + " \(warning.message)", indent: "      "))
                    lines.append(warning.diagnostic(file: file, paths: paths))
                }
            }
            if result.passed {
                lines.append("  \(style.pass) \(exercise.id) \(exercise.title)\(Says.passedEveryRun(runs))")
                if inFull(result) { addNotesAndWarnings() }
                continue
            }
            let kind = result.kind?.label ?? "failed"
            lines.append("  \(style.fail) \(exercise.id) \(exercise.title) — \(style.red(kind))")
            guard inFull(result) else { continue }
            if runs > 1 && result.compileErrors == nil {
                let outcome = result.failuresByKind.map { "\($0.0.label) \($0.1)" }.joined(separator: ", ")
                let failed = result.runs.filter { !$0.passed }.count
                lines.append("      " + Says.failedRuns(failed, of: result.runs.count, outcome: outcome))
            }
            let findings = result.findings.inTeachingOrder
            for (index, finding) in findings.enumerated() where index < 3 || verbose {
                lines.append(wrap(finding.message + Says.repeats(finding), indent: "      "))
                // Plain and at the line's start: where a problem matcher looks for it.
                lines += finding.diagnostic(exerciseFile: file, paths: paths)
                if let test = finding.test { lines.append("      " + style.dim(Says.foundBy(test: test))) }
                if verbose, let detail = finding.detail, !detail.isEmpty {
                    lines.append(detail.split(separator: "\n", omittingEmptySubsequences: false)
                        .map { "        " + $0 }.joined(separator: "\n"))
                }
            }
            if findings.count > 3 && !verbose {
                lines.append(style.dim(Says.moreFindings(findings.count - 3)))
            }
            addNotesAndWarnings()
            lines.append(style.dim(wrap(Says.nextSteps(file: file, lesson: Layout.lesson(result.chapter), exercise: exercise.id,
                                                          race: result.kind == .race), indent: "      ")))
        }
        let passing = results.filter(\.passed).count
        lines.append("")
        lines.append(Says.passing(passing, of: results.count, seconds: seconds))
        return lines.joined(separator: "\n")
    }
}

/// Wraps `text` at about 100 columns, each line starting with `indent`.
package func wrap(_ text: String, indent: String = "", width: Int = 100) -> String {
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
        var line = ""
        for word in paragraph.split(separator: " ") {
            if !line.isEmpty && indent.count + line.count + word.count + 1 > width {
                lines.append(indent + line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(indent + line)
    }
    return lines.joined(separator: "\n")
}

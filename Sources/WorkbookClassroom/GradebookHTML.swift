import Foundation
import WorkbookCore
import WorkbookEngine

/// The gradebook as one self-contained web page: students × exercises coloured by verdict (each
/// failing cell's reason on hover, and in a row of details under its student), and per exercise how
/// many students each kind of failure caught, the exercises that trip the class most first. Inline
/// CSS only: no scripts, fonts or anything else from the network.
package enum GradebookHTML {
    /// The page for `gradebook`. Every string a student could have chosen (folder names, notes,
    /// paths) is HTML-escaped.
    package static func render(_ gradebook: Gradebook) -> String {
        let students = gradebook.rows.count
        let average = students == 0 ? 0 : Double(gradebook.rows.map(\.total).reduce(0, +)) / Double(students)
        var html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(markupEscaped(title(gradebook)))</title>
        <style>
        \(stylesheet)
        </style>
        </head>
        <body>
        <header>
        <h1>\(markupEscaped(title(gradebook)))</h1>
        <p class="summary">\(students) student\(students == 1 ? "" : "s") · \(gradebook.exercises.count) exercise\(gradebook.exercises.count == 1 ? "" : "s") · \(gradebook.maxTotal) points possible · average total \(String(format: "%.1f", average))</p>
        </header>

        """
        html += legend(gradebook)
        html += histogram(gradebook)
        html += table(gradebook)
        html += "</body>\n</html>\n"
        return html
    }

    /// "Gradebook — gcd-assignment", or "Gradebook" when the assignment has no name.
    private static func title(_ gradebook: Gradebook) -> String {
        gradebook.assignment.isEmpty ? "Gradebook" : "Gradebook — \(gradebook.assignment)"
    }

    /// Per exercise, a bar of the class split by verdict, the most failures first.
    private static func histogram(_ gradebook: Gradebook) -> String {
        let students = gradebook.rows.count
        let failures = { (id: String) in
            gradebook.rows.filter { if case .failed = $0.cell(id).verdict { true } else { false } }.count
        }
        // Stable: exercises that trip as many students keep the columns' order.
        let ranked = gradebook.exercises.enumerated()
            .sorted { (failures($0.element), -$0.offset) > (failures($1.element), -$1.offset) }
            .map(\.element)
        var html = "<section>\n<h2>Where the class trips</h2>\n"
        html += "<p class=\"hint\">How many students each kind of failure caught, per exercise; the exercises that trip the most students come first.</p>\n"
        guard students > 0 else { return html + "<p>No submissions were graded.</p>\n</section>\n" }
        html += "<div class=\"bars\">\n"
        for id in ranked {
            // Failures on the left, where the eye starts; passes last.
            let counts = (ClassroomVerdict.allCases.filter { $0 != .pass } + [.pass]).map { verdict in
                (verdict, gradebook.rows.filter { $0.cell(id).verdict == verdict }.count)
            }.filter { $0.1 > 0 }
            let caught = counts.filter { if case .failed = $0.0 { true } else { false } }
            let summary = caught.isEmpty ? "no failures"
                : caught.map { "\($0.1) \($0.0.label)" }.joined(separator: ", ")
            html += "<div class=\"bar-row\"><span class=\"exercise\">\(markupEscaped(id))</span><div class=\"bar\">"
            for (verdict, count) in counts {
                let label = "\(count) \(count == 1 ? "student" : "students"): \(verdict.label)"
                html += "<span class=\"segment \(cssClass(verdict))\" style=\"flex: \(count) 1 0\" title=\"\(markupEscaped(label))\">\(count)</span>"
            }
            html += "</div><span class=\"caught\">\(failures(id)) of \(students) failed · \(markupEscaped(summary))</span></div>\n"
        }
        return html + "</div>\n</section>\n"
    }

    /// Students × exercises, each cell its points and verdict, then the total and anything noted.
    private static func table(_ gradebook: Gradebook) -> String {
        var html = "<section>\n<h2>Students</h2>\n<div class=\"table-wrap\">\n<table>\n<thead><tr><th scope=\"col\" class=\"student\">Student</th>"
        for id in gradebook.exercises {
            html += "<th scope=\"col\">\(markupEscaped(id))</th>"
        }
        html += "<th scope=\"col\">Total (of \(gradebook.maxTotal))</th><th scope=\"col\" class=\"notes\">Notes</th></tr></thead>\n<tbody>\n"
        let columns = gradebook.exercises.count + 3
        for row in gradebook.rows {
            html += "<tr><th scope=\"row\" class=\"student\">\(markupEscaped(row.student))</th>"
            for id in gradebook.exercises {
                let cell = row.cell(id)
                let title = "\(id): \(cell.verdict.label)" + (cell.reason.isEmpty ? "" : " — \(cell.reason)")
                html += "<td class=\"cell \(cssClass(cell.verdict))\" title=\"\(markupEscaped(title))\">"
                    + "<b>\(cell.points)</b><small>\(markupEscaped(cell.verdict.code))</small></td>"
            }
            html += "<td class=\"total\">\(row.total)</td><td class=\"notes\">"
            var notes: [String] = []
            let same = row.sameCode(in: gradebook.exercises)
            if !same.isEmpty {
                notes.append("<span class=\"flag same\">Same code</span> (comments and spacing aside): \(markupEscaped(same))")
            }
            if !row.tampered.isEmpty {
                notes.append("<span class=\"flag\">Protected files changed</span> (put back before grading; the points come from the originals): "
                    + row.tampered.map { "<code>\(markupEscaped($0))</code>" }.joined(separator: ", "))
            }
            if !row.note.isEmpty { notes.append(markupEscaped(row.note)) }
            if let graded = graded(row) { notes.append("<span class=\"graded\">" + markupEscaped(graded) + "</span>") }
            html += notes.joined(separator: "<br>") + "</td></tr>\n"
            let failing = gradebook.exercises.filter { row.cell($0).verdict != .pass && !row.cell($0).reason.isEmpty }
            if !failing.isEmpty {
                html += "<tr class=\"why\"><td colspan=\"\(columns)\"><details><summary>Why \(markupEscaped(row.student)) lost points: "
                    + "\(failing.count) exercise\(failing.count == 1 ? "" : "s")</summary><ul>"
                    + failing.map { "<li><b>\(markupEscaped($0))</b> \(markupEscaped(row.cell($0).reason))</li>" }.joined()
                    + "</ul></details></td></tr>\n"
            }
        }
        return html + "</tbody>\n</table>\n</div>\n</section>\n"
    }

    /// "commit 1a2b3c4d5e6f of 2026-03-01T10:00:00Z, graded 2026-03-02T09:00:00Z"; `nil` for a row
    /// that says neither (one read from an older gradebook).
    private static func graded(_ row: Gradebook.Row) -> String? {
        guard !row.gradedAt.isEmpty || !row.commit.isEmpty else { return nil }
        let commit = row.commit.isEmpty ? "no commit (not a git repository)"
            : "commit \(row.commit.prefix(12))" + (row.commitDate.isEmpty ? "" : " of \(row.commitDate)")
        return commit + (row.gradedAt.isEmpty ? "" : ", graded \(row.gradedAt)")
    }

    /// What each colour on the page means.
    private static func legend(_ gradebook: Gradebook) -> String {
        let shown = ClassroomVerdict.allCases.filter { verdict in
            gradebook.rows.contains { row in gradebook.exercises.contains { row.cell($0).verdict == verdict } }
        }
        return "<ul class=\"legend\">"
            + shown.map { "<li><span class=\"swatch \(cssClass($0))\"></span>\(markupEscaped($0.label))</li>" }.joined()
            + "</ul>\n"
    }

    /// The class of a verdict's colours: `v-pass`, `v-race`, `v-not-graded`, …
    private static func cssClass(_ verdict: ClassroomVerdict) -> String {
        "v-" + verdict.code.replacingOccurrences(of: " ", with: "-")
    }

    /// Each verdict's colours: a light background with dark text for table cells (7:1 contrast or
    /// better), a stronger shade for bars and swatches, and the text on those bars (4.5:1 or better).
    private static func colours(_ verdict: ClassroomVerdict) -> (background: String, text: String, bar: String, barText: String) {
        let light = "#ffffff", dark = "#1b1b1b"
        return switch verdict {
        case .pass: ("#d3f3dc", "#0b4526", "#2f9e5c", dark)
        case .failed(.race): ("#fde0df", "#7a1a1a", "#c53030", light)
        case .failed(.crash): ("#f7dbf0", "#5e1750", "#b0368f", light)
        case .failed(.hang): ("#fff1c4", "#5a4300", "#d9a300", dark)
        case .failed(.wrong): ("#ffe3d1", "#6b2d0b", "#e8702a", dark)
        case .failed(.compile): ("#dfe5ec", "#1f2b3a", "#5b6b7f", light)
        case .tampered: ("#e7defe", "#33206b", "#7048c4", light)
        case .notGraded: ("#efefef", "#3d3d3d", "#b5b5b5", dark)
        }
    }

    private static var stylesheet: String {
        let verdicts = ClassroomVerdict.allCases.map { verdict in
            let colour = colours(verdict), name = cssClass(verdict)
            return ".cell.\(name) { background: \(colour.background); color: \(colour.text); }\n"
                + ".segment.\(name) { background: \(colour.bar); color: \(colour.barText); }\n"
                + ".swatch.\(name) { background: \(colour.bar); }"
        }.joined(separator: "\n")
        return """
        :root { color-scheme: light; }
        body { margin: 0 auto; padding: 1.5rem 2rem 3rem; max-width: 80rem; background: #fafafa; color: #1b1b1b;
               font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
        h1 { margin: 0 0 .25rem; font-size: 1.6rem; }
        h2 { margin: 2rem 0 .5rem; font-size: 1.15rem; }
        .summary, .hint { margin: 0; color: #4a4a4a; }
        .legend { display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; padding: 0; margin: 1rem 0 0; list-style: none; font-size: .9rem; }
        .legend li { display: flex; align-items: center; gap: .4rem; }
        .swatch { display: inline-block; width: .9rem; height: .9rem; border-radius: 3px; }
        .bars { display: grid; gap: .35rem; margin-top: .75rem; }
        .bar-row { display: grid; grid-template-columns: 4rem minmax(12rem, 1fr) minmax(12rem, 22rem); align-items: center; gap: .75rem; }
        .exercise { font-weight: 600; font-variant-numeric: tabular-nums; }
        .bar { display: flex; height: 1.3rem; border-radius: 4px; overflow: hidden; background: #e4e4e4; }
        .segment { display: flex; align-items: center; justify-content: center; min-width: 1.2rem;
                   font-size: .75rem; font-weight: 600; }
        .caught { font-size: .85rem; color: #3a3a3a; }
        .table-wrap { max-height: 80vh; overflow: auto; border: 1px solid #d6d6d6; border-radius: 6px; background: #fff; }
        table { border-collapse: separate; border-spacing: 0; width: 100%; font-variant-numeric: tabular-nums; }
        th, td { padding: .35rem .6rem; border-bottom: 1px solid #e6e6e6; text-align: center; white-space: nowrap; }
        thead th { position: sticky; top: 0; z-index: 2; background: #f0f0f0; border-bottom: 1px solid #cfcfcf; }
        th.student { position: sticky; left: 0; z-index: 1; background: #fff; text-align: left; font-weight: 600; }
        thead th.student { z-index: 3; background: #f0f0f0; }
        td.cell b { display: block; font-size: .95rem; }
        td.cell small { display: block; font-size: .7rem; letter-spacing: .02em; }
        td.total { font-weight: 700; }
        .notes { text-align: left; white-space: normal; min-width: 14rem; font-size: .85rem; }
        .flag { font-weight: 600; color: #33206b; }
        .flag.same { color: #7a1a1a; }
        .graded { color: #5a5a5a; font-size: .8rem; }
        .notes code { overflow-wrap: anywhere; }
        tr.why td { padding: 0 .6rem .4rem; text-align: left; white-space: normal; border-bottom: 1px solid #d6d6d6; font-size: .85rem; }
        tr.why summary { cursor: pointer; color: #3a3a3a; }
        tr.why ul { margin: .3rem 0 .2rem; padding-left: 1.2rem; }
        tr.why li b { font-variant-numeric: tabular-nums; margin-right: .4rem; }
        code { font: .8rem ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
        \(verdicts)
        """
    }
}

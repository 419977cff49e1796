import Foundation

/// A race drawn for a learner (`workbook explain`, `check --explain`): the two threads side by side,
/// the learner's own lines in the order TSan saw them, the lines of their file on each thread's
/// stack at its access (not whoever submitted the block, and for the earlier access sometimes only
/// part of the stack), and between the two the ordering TSan did not see — then the question the
/// lesson asks.
///
/// Time runs down the page: the access TSan remembered comes first, in the left column; the access
/// that found it, below and to the right. Pure: it reads the report and the file's text it is given.
package struct RaceTimeline {
    var exercise: Exercise
    package var report: TSanReport
    /// The learner's file, relative to the package (`Exercises/Chapter1Latch/CountdownBlock.swift`).
    var file: String
    /// The file's text, when it could be read.
    package var source: String?

    /// The report's accesses, placed in the learner's file.
    private var placed: RaceSides { RaceSides(report, in: "/" + file, source: source) }

    /// The drawing, each line at most `width` columns (at least 60).
    func lines(width: Int = 80) -> [String] {
        let width = max(width, 60)
        let placed = self.placed, sides = placed.inOrder
        var out = wrapped(Says.explainTitle(exercise, title: report.title), width: width)
        guard sides.count == 2, sides.contains(where: { !$0.frames.isEmpty }) else {
            return out + [""] + wrapped(Says.explainNoTimeline(exercise), width: width)
        }
        let column = (width - 3) / 2
        let first = block(sides[0], isFirst: true, width: column - 1, variable: placed.variable)
        let second = block(sides[1], isFirst: false, width: column - 1, variable: placed.variable)
        out.append("")
        out += first.map { pad($0, column) + "│" }
        out.append(separator(width: width))
        out += second.map { pad("", column) + "│ " + $0 }
        out.append("")
        out += wrapped(Says.explainNoEdge(first: said(sides[0]), second: said(sides[1]), what: placed.variable), width: width)
        out.append("")
        out += wrapped(Says.explainQuestion, width: width)
        out += wrapped(Says.explainNext(exercise), width: width)
        return out
    }

    /// One thread's column: who it is, the calls in the learner's file that led to the access
    /// (outermost first), and the access itself under its line — or, when its line is unknown, the
    /// function it was made in, said as such.
    private func block(_ side: RaceSides.Side, isFirst: Bool, width: Int, variable: String?) -> [String] {
        var rows = [fit(Says.explainThread(isFirst: isFirst, thread: who(side)), width)]
        guard let innermost = side.frames.first else {
            let place = side.elsewhere.map { frame in
                (frame.file.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "") + (frame.line.map { ":\($0)" } ?? "")
            }
            rows += wrapped(Says.explainOutsideFile(exercise, place: place), width: width, indent: "  ")
            return rows
        }
        for call in side.callLines.suffix(3) {
            rows.append(fit("  \(call)│ " + (sourceLine(call) ?? ""), width))
        }
        guard let line = side.line else {
            if let function = side.function {
                // TSan kept no line, and the code it names has no one line for this access: the
                // function it was made in, at its declaration.
                rows.append(fit("  in \(function.name)", width))
                rows.append(fit("  \(function.line)│ " + (sourceLine(function.line) ?? ""), width))
                rows += wrapped(Says.explainOnlyFunction(isWrite: side.isWrite, function: function.name), width: width, indent: "     ")
            } else {
                rows.append(fit("  " + Says.explainLineUnknown, width))
                rows.append(fit("     ▲ " + Says.explainAccess(isWrite: side.isWrite, variable: nil, first: isFirst), width))
            }
            return rows
        }
        // The function of the access's line, above it: by the frame's symbol, else the nearest
        // declaration above the line.
        let named = side.declaration ?? source.flatMap { RaceSides.function(named: innermost.symbol, in: $0) }?.name
        if let function = named ?? enclosingFunction(before: line) {
            rows.append(fit("  in \(function)", width))
        }
        rows.append(fit("  \(line)│ " + (sourceLine(line) ?? ""), width))
        rows.append(fit("     ▲ " + Says.explainAccess(isWrite: side.isWrite, variable: accessed(side, at: line, variable: variable),
                                                       first: isFirst), width))
        return rows
    }

    /// The variable the access at `line` is shown with: the race's variable when the line names it,
    /// else, for a write, the variable the line assigns; `nil` ("here") when neither.
    private func accessed(_ side: RaceSides.Side, at line: Int, variable: String?) -> String? {
        if let variable, let text = sourceLine(line),
           text.range(of: "\\b\(NSRegularExpression.escapedPattern(for: variable))\\b", options: .regularExpression) != nil {
            return variable
        }
        return side.isWrite ? Grader.variableName(inLine: line, of: source) : nil
    }

    /// The row between the two threads: the ordering TSan did not see between the two accesses.
    private func separator(width: Int) -> String {
        let label = " " + Says.explainSeparator + " "
        let dashes = max(width - label.count, 4)
        return String(repeating: "╌", count: dashes / 2) + label + String(repeating: "╌", count: dashes - dashes / 2)
    }

    /// Who made an access, how, and where, for the sentence under the drawing.
    private func said(_ side: RaceSides.Side) -> Says.ExplainedAccess {
        Says.ExplainedAccess(thread: who(side), isWrite: side.isWrite, line: side.line, function: side.function?.name)
    }

    /// "thread T5 (a test thread)", "the main thread".
    private func who(_ side: RaceSides.Side) -> String {
        if side.thread == "main thread" { return "the main thread" }
        return "thread \(side.thread)" + (report.threadKinds[side.thread].map { " (\($0))" } ?? "")
    }

    private var sourceLines: [Substring] {
        source?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
    }

    private func sourceLine(_ line: Int) -> String? {
        let lines = sourceLines
        guard line >= 1, line <= lines.count else { return nil }
        return lines[line - 1].trimmingCharacters(in: .whitespaces)
    }

    /// The name of the declaration `line` sits in, as `makeLatch(…)`, `init(…)`, `deinit` or a
    /// property's name: the nearest declaration above it.
    private func enclosingFunction(before line: Int) -> String? {
        let lines = sourceLines
        guard line >= 1, line <= lines.count else { return nil }
        return lines[..<line].reversed().lazy.compactMap { RaceSides.declaration(in: $0)?.shown }.first
    }

    private func fit(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// `text` wrapped, each command it suggests as the learner starts the tool.
    private func wrapped(_ text: String, width: Int, indent: String = "") -> [String] {
        wrap(text, indent: indent, width: width).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}

package extension CheckReport.Result {
    /// Whether `explain` draws a race of this exercise (one of its runs reported one in its file).
    var hasRaceDrawing: Bool {
        runs.contains { RaceTimeline.of($0, source: source) != nil }
    }
}

package extension CheckReport {
    /// What `explain` says of each exercise checked, at most `width` columns wide: a race drawn as a
    /// ``RaceTimeline`` (the first race of the exercise, the one the check's message names), or a
    /// sentence saying why there is nothing to draw. `racesOnly`: the drawings alone (`check --explain`).
    /// Drawn from what the check carried (each race's parsed report, the learner's file as it was
    /// read): nothing is read or parsed again.
    func explanations(width: Int = 80, racesOnly: Bool) -> [String] {
        results.compactMap { result -> String? in
            if let timeline = result.runs.lazy.compactMap({ RaceTimeline.of($0, source: result.source) }).first {
                return timeline.lines(width: width).joined(separator: "\n")
            }
            guard !racesOnly else { return nil }
            let said = result.passed ? Says.explainPassed(result.exercise)
                : Says.explainNotARace(result.exercise, kind: result.kind?.label ?? "failed")
            return wrap(said, width: width)
        }
    }
}

extension RaceTimeline {
    /// The timeline of `verdict`'s race as `explain` draws it — its finding's parsed report over
    /// `source`, the text of the learner's file the check graded — or `nil` when the verdict has no race.
    package static func of(_ verdict: ExerciseVerdict, source: String?) -> RaceTimeline? {
        guard let finding = verdict.findings.first(where: { $0.kind == .race && $0.detail != nil }),
              let report = finding.report, let file = finding.file
        else { return nil }
        return RaceTimeline(exercise: verdict.exercise, report: report, file: file, source: source)
    }

    /// The timeline of `verdict`'s race drawn over its file as it is in `workbook` now: for verdicts
    /// graded outside a check (the self-test's, of the solutions), which carry no text of the file.
    package static func of(_ verdict: ExerciseVerdict, in workbook: Workbook) -> RaceTimeline? {
        let file = verdict.findings.first { $0.kind == .race && $0.detail != nil }?.file
        return of(verdict, source: file.flatMap { try? String(contentsOf: workbook.root.appendingPathComponent($0), encoding: .utf8) })
    }

    /// Why this drawing would fail a learner at `width` columns, or `nil` when it does not: a thread
    /// with none of the learner's lines on it (both threads must be drawn, one at least in the
    /// learner's file), or a line wider than `width`.
    package func problem(width: Int = 80) -> String? {
        let sides = placed.sides
        if sides.count != 2 { return "explain cannot draw it: the report has \(sides.count) accesses, not 2" }
        if !sides.contains(where: { $0.line != nil || $0.function != nil }) { return "explain cannot draw it: no line of \(exercise.file) on either thread" }
        if let wide = lines(width: width).first(where: { $0.count > width }) {
            return "explain draws a line wider than \(width) columns: \(wide)"
        }
        return nil
    }
}

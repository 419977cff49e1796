import Foundation
import WorkbookKit

extension Flag {
    static let runs = Flag("--runs", .count(default: 1), help: "run the tests N times, to shake out races that show only sometimes")
    static let verbose = Flag("--verbose", help: "also print the raw TSan reports, crash backtraces and test messages")
    static let json = Flag("--json", help: "print results as JSON (Exercism results.json v3, with chapter, kind, location)")
    static let junit = Flag("--junit", .path, help: "also write JUnit XML to PATH")
}

extension Command {
    static let check = Command(
        name: "check",
        abstract: "grade your exercises under the Thread Sanitizer",
        arguments: .any("exercise|chapter"),
        discussion: """
        Builds your exercises under the Thread Sanitizer and grades them: ✔, or ✘ with the reason — a \
        data race (the two lines of your file that raced), a wrong result, code that never finished (a \
        hang), a crash, or a compile error. A chapter that does not compile does not stop the others \
        from being graded. With no names, checks everything. Exit status 0 only if everything checked passed.
        """,
        flags: [.runs, .verbose, .json, .junit],
        run: { arguments in
            let workbook = try currentWorkbook()
            var session = try LearnerSession(workbook: workbook)
            let items = try workbook.select(arguments.positional)
            let report = try Checker(workbook: workbook, progress: Terminal.progress).check(items, runs: arguments.count(.runs))
            let frozen = session.frozenChanges()
            if !frozen.isEmpty {
                Terminal.warn(Style.automatic(for: STDERR_FILENO).yellow(Messages.frozenFilesChanged(frozen)))
            }
            let change = try session.record(report)
            if let path = arguments.text(.junit) {
                try report.junitXML().write(toFile: path, atomically: true, encoding: .utf8)
            }
            if arguments.has(.json) {
                Terminal.say(String(decoding: report.exercismJSON(in: workbook, frozenChanges: frozen), as: UTF8.self))
            } else {
                let verbose = arguments.has(.verbose)
                let style = Style.automatic
                let text = report.rendered(style: style, verbose: verbose, workbook: workbook, width: Terminal.width)
                // Raw TSan reports name functions by mangled symbols; make them readable. Raw output
                // may carry colours of its own: none when piped.
                Terminal.say(style.fitting(verbose ? Demangler.demangle(text) : text))
                printChange(change, style: .automatic)
                printNext(session.next(after: report), report: report, style: .automatic)
            }
            return report.passed ? 0 : 1
        })
}

/// Says which exercises a check newly passed or newly failed.
func printChange(_ change: LearnerSession.Change, style: Style) {
    if !change.undone.isEmpty {
        Terminal.say(style.yellow(wrap(Messages.undone(change.undone), width: Terminal.width)))
    }
}

/// The line that tells the learner where to go after a check.
func printNext(_ next: LearnerSession.Item?, report: CheckReport, style: Style) {
    guard let next else {
        Terminal.say(style.green("Every exercise is done. Well synchronized!"))
        return
    }
    let failedHere = report.results.contains { $0.exercise.id == next.exercise.id && !$0.passed }
    let verb = failedHere ? "fix" : "next"
    Terminal.say(wrap("\(style.bold("Next:")) \(verb) \(next.exercise.id) \(next.exercise.title) — \(Layout.exerciseFile(next.chapter, next.exercise))",
               width: Terminal.width))
}

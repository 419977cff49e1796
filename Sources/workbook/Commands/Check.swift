import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine
import WorkbookWire

extension Command {
    /// What `check` takes.
    struct CheckFlags: FlagSet {
        let runs = Flag("--runs", .count(default: 1), help: "run the tests N times, to shake out races that show only sometimes")
        let verbose = Flag("--verbose", help: "also print the raw TSan reports, crash backtraces and test messages")
        let explain = Flag("--explain", help: "draw each race found as a timeline of the two threads (as \(Says.command("explain")) does)")
        let json = Flag("--json", help: "print results as JSON (Exercism results.json v3, with chapter, kind, location)")
        let junit = Flag("--junit", .path, help: "also write JUnit XML to PATH")
        let classroom = Flag("--classroom", help: "grade as a classroom assignment: verify workbook.lock first, then award its points (a chapter whose protected files changed gets 0)")
    }

    static let check: Command = Command(
        name: .check,
        abstract: "grade your exercises under the Thread Sanitizer",
        arguments: .any("exercise|chapter"),
        discussion: """
        Builds your exercises under the Thread Sanitizer and grades them: ✔, or ✘ with the reason — a \
        data race (the two lines of your file that raced), a wrong result, code that never finished (a \
        hang), a crash, or a compile error. A chapter that does not compile does not stop the others \
        from being graded. With no names, checks everything. Exit status 0 only if everything checked passed.
        """,
        flags: CheckFlags.self,
        buildsChapters: true,
        run: { arguments in
            let workbook = try currentWorkbook()
            if arguments[\.classroom] { return try checkClassroom(workbook, arguments) }
            var session = try LearnerSession(workbook: workbook)
            let items = try workbook.select(arguments.positional)
            let checked = try session.check(items, with: Terminal.checker(for: workbook), runs: arguments[\.runs], askingFrozen: true)
            let report = checked.report
            if !checked.frozen.isEmpty {
                Terminal.warn(Terminal.errorStyle.yellow(Says.frozenFilesChanged(checked.frozen)))
            }
            if let path = arguments[\.junit] {
                try report.junitXML().write(toFile: path, atomically: true, encoding: .utf8)
            }
            if arguments[\.json] {
                Terminal.say(String(decoding: report.exercismJSON(in: workbook, frozenChanges: checked.frozen), as: UTF8.self))
            } else {
                let verbose = arguments[\.verbose]
                let style = Terminal.style
                let text = report.rendered(style: style, verbose: verbose, workbook: workbook, width: Terminal.width,
                                           paths: Terminal.paths(for: workbook))
                // Raw TSan reports name functions by mangled symbols; make them readable. Raw output
                // may carry colours of its own: none when piped.
                Terminal.say(style.fitting(verbose ? Demangler.demangle(text) : text))
                if arguments[\.explain] {
                    for timeline in report.explanations(width: min(Terminal.width, 80), racesOnly: true) {
                        Terminal.say("")
                        Terminal.say(timeline)
                    }
                }
                printChange(checked.change, style: Terminal.style)
                printNext(checked.next, report: report, style: Terminal.style)
            }
            return report.passed ? 0 : 1
        })
}

/// Says which exercises a check newly passed or newly failed.
func printChange(_ change: LearnerSession.Change, style: Style) {
    if !change.undone.isEmpty {
        Terminal.say(style.yellow(wrap(Says.undone(change.undone), width: Terminal.width)))
    }
}

/// The line that tells the learner where to go after a check.
func printNext(_ next: ExerciseRef?, report: CheckReport, style: Style) {
    guard let next else {
        Terminal.say(style.green(Says.everyExerciseDone))
        return
    }
    let failed = report.results.contains { $0.exercise.id == next.exercise.id && !$0.passed }
    Terminal.say(wrap(Next.line(exercise: next.exercise, in: next.chapter, failed: failed, style: style), width: Terminal.width))
}

/// The line that says where to go next.
enum Next {
    /// "Next: fix 1.1 A countdown block — Exercises/…/CountdownBlock.swift" when the check just saw it
    /// fail, else "Next: 1.2 The animation latch — Exercises/…/AnimationLatch.swift".
    static func line(exercise: Exercise, in chapter: Chapter, failed: Bool, style: Style) -> String {
        "\(style.bold("Next:")) \(failed ? "fix " : "")\(exercise.id) \(exercise.title) — \(Layout.exerciseFile(chapter, exercise))"
    }
}

/// `check --classroom`: the lock first, then the assigned exercises asked for, then their points.
/// Exit status 0 only when every exercise checked earned its points.
private func checkClassroom(_ workbook: Workbook, _ arguments: ParsedArguments<Command.CheckFlags>) throws -> Int32 {
    guard FileManager.default.fileExists(atPath: workbook.layout.url(WorkbookLock.fileName).path) else {
        throw UsageError(message: "there is no \(WorkbookLock.fileName) here: --classroom grades a student copy made by \(Says.command("export")).")
    }
    let lock = try WorkbookLock.read(root: workbook.root)
    let violations = try lock.verify(root: workbook.root)
    let assigned = lock.assignment.exercises(in: workbook).map(\.exercise.id)
    let asked = try workbook.select(arguments.positional)
    let outside = asked.map(\.exercise.id).filter { !assigned.contains($0) }
    if !arguments.positional.isEmpty, !outside.isEmpty, outside.count == asked.count {
        throw UsageError(message: "\(outside.joined(separator: ", ")) is not part of this assignment (\(WorkbookLock.fileName) assigns \(assigned.joined(separator: ", "))).")
    }
    let items = asked.filter { assigned.contains($0.exercise.id) }
    // A fixed number of explored scenarios: one code gets one grade on every machine.
    var checker = Terminal.checker(for: workbook)
    checker.exploration = .classroom
    let report = try checker.check(items, runs: arguments[\.runs])
    // The exercises not checked this time are not part of this grade.
    var assignment = lock.assignment
    assignment.points = assignment.points.filter { id, _ in items.contains { $0.exercise.id == id } }
    let grade = ClassroomGrade(report: report, assignment: assignment, violations: violations, workbook: workbook)
    if let path = arguments[\.junit] {
        try report.junitXML().write(toFile: path, atomically: true, encoding: .utf8)
    }
    if arguments[\.json] {
        Terminal.say(String(decoding: report.exercismResults(in: workbook).adding(grade).encoded(), as: UTF8.self))
    } else {
        let style = Terminal.style
        Terminal.say(style.fitting(report.rendered(style: style, verbose: arguments[\.verbose], workbook: workbook, width: Terminal.width,
                                                   paths: Terminal.paths(for: workbook))))
        Terminal.say("")
        Terminal.say(style.bold("Classroom grade"))
        for violation in grade.violations {
            Terminal.say(style.red(wrap("changed: \(violation)", indent: "  ", width: Terminal.width)))
        }
        for item in grade.items {
            let mark = item.verdict == .pass ? style.pass : style.fail
            Terminal.say(wrap("\(mark) \(item.exercise)  \(item.points)/\(item.maxPoints)  \(item.reason)", indent: "  ", width: Terminal.width))
        }
        Terminal.say(style.bold("Total: \(grade.total) of \(grade.maxTotal) points"))
    }
    return grade.items.allSatisfy { $0.verdict == .pass } ? 0 : 1
}

import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

extension Command {
    /// What `solution` takes.
    struct SolutionFlags: FlagSet {
        let force = Flag("--force", help: "show it although the exercise has not passed yet")
    }

    static let solution: Command = Command(
        name: .solution,
        abstract: "the reference solution, once you have passed the exercise",
        arguments: .one("exercise", example: "1.1"),
        discussion: """
        Shows the reference solution of an exercise you have passed, then its non-solutions: answers \
        that look right and are not, each with a line on why the tests catch it, and correct answers \
        written another way. Looking earlier spoils the puzzle; --force shows it anyway.
        """,
        flags: SolutionFlags.self,
        audience: .workbook,
        run: { arguments in
            let workbook = try currentWorkbook()
            let session = try LearnerSession(workbook: workbook)
            let named = try workbook.exercise(named: arguments.only)
            let (chapter, exercise) = (named.chapter, named.exercise)
            switch session.solutionAccess(exercise, in: chapter, force: arguments[\.force]) {
            case .absent:
                Terminal.warn("This copy of the workbook has no reference solutions (\(SourceSet.solutions.folder)/ is not part of it). \(Says.command("hint \(exercise.id)")) leads you there step by step.")
                return 1
            case .hidden:
                Terminal.warn("\(exercise.id) has not passed yet, so its solution stays hidden. Try \(Says.command("hint \(exercise.id)")), or add --force to look anyway.")
                return 1
            case .forced:
                Terminal.warn("Warning: \(exercise.id) has not passed yet — the solution ends the puzzle.")
            case .open:
                break
            }
            let file = workbook.solutionFile(chapter, exercise)
            let style = Terminal.style
            Terminal.say(style.dim("// \(workbook.layout.relative(file))"))
            Terminal.say(try String(contentsOf: file, encoding: .utf8))
            let corpus = workbook.corpus(of: [chapter]).entries.filter { $0.exerciseID == exercise.id }
            let nonSolutions = corpus.filter { $0.expectation != .passes }
            let alternatives = corpus.filter { $0.expectation == .passes }
            if !nonSolutions.isEmpty {
                Terminal.say(style.bold("Non-solutions") + " — answers that look right and are not; the tests catch each one:")
                for entry in nonSolutions {
                    let kind = if case let .fails(kind) = entry.expectation { kind.label } else { "" }
                    Terminal.say(wrap("\(style.fail) \(entry.why) (\(kind))", indent: "  ", width: Terminal.width))
                    Terminal.say("    " + style.dim(workbook.layout.relative(entry.file)))
                }
            }
            if !alternatives.isEmpty {
                Terminal.say("")
                Terminal.say(style.bold("Also correct") + " — the same contract met another way:")
                for entry in alternatives {
                    Terminal.say(wrap("\(style.pass) \(entry.why)", indent: "  ", width: Terminal.width))
                    Terminal.say("    " + style.dim(workbook.layout.relative(entry.file)))
                }
            }
            return 0
        })
}

import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine
import WorkbookMaintainer

extension Flag {
    static let restart = Flag("--reset", help: "start this exercise's hints from the first step")
}

extension Command {
    static let hint = Command(
        name: .hint,
        abstract: "the next hint for an exercise, one step at a time",
        arguments: .one("exercise", example: "1.1"),
        discussion: """
        Shows the next hint for an exercise: first a question, then a direction, then the shape of the \
        fix. Each call shows one more step (and the ones before it). In a student copy, the hints are \
        the ones the teacher handed out, and the last step comes once a check of the exercise has failed.
        """,
        flags: [.restart],
        audience: .hints,
        run: { arguments in
            let workbook = try currentWorkbook()
            var session = try LearnerSession(workbook: workbook)
            let named = try workbook.exercise(named: arguments.only)
            let (chapter, exercise) = (named.chapter, named.exercise)
            let lesson = "The lesson, \(Says.command("lesson \(chapter.number)")), explains the idea."
            guard let view = try session.nextHint(for: exercise, in: chapter, restart: arguments.has(.restart)) else {
                let said = switch workbook.exportedHints?.level {
                case nil: "This copy of the workbook has no hints for \(exercise.id) (they are kept in \(Layout.hints(chapter)))."
                case .none?: "Your teacher handed out this assignment without hints."
                case _?: "The hints handed out with this assignment do not cover \(exercise.id)."
                }
                Terminal.say(wrap("\(said) \(lesson)", width: Terminal.width))
                return 1
            }
            let style = Terminal.style
            Terminal.say(style.bold("Hints for \(exercise.id) \(exercise.title)") + " (\(view.steps.count) of \(view.total))")
            for step in view.steps {
                Terminal.say("")
                Terminal.say(style.bold("\(step.name):"))
                Terminal.say(renderMarkdown(step.text))
            }
            Terminal.say("")
            let next = if view.lastStepWaits {
                "The last step comes once a check of \(exercise.id) has failed: try your fix, run \(Says.command("check \(exercise.id)")), then ask again."
            } else if !view.isLast {
                "Run \(Says.command("hint \(exercise.id)")) again for the next step."
            } else if workbook.exportedHints == nil {
                "That was the last step. Once \(exercise.id) passes, \(Says.command("solution \(exercise.id)")) shows the reference solution."
            } else {
                "That was the last step. \(lesson)"
            }
            Terminal.say(style.dim(wrap(next, width: Terminal.width)))
            return 0
        })
}

import Foundation
import WorkbookKit

extension Flag {
    static let restart = Flag("--reset", help: "start this exercise's hints from the first step")
}

extension Command {
    static let hint = Command(
        name: "hint",
        abstract: "the next hint for an exercise (three steps)",
        arguments: .one("exercise", example: "1.1"),
        discussion: """
        Shows the next hint for an exercise: first a question, then a direction, then the shape of the \
        fix. Each call shows one more step (and the ones before it).
        """,
        flags: [.restart],
        run: { arguments in
            let workbook = try currentWorkbook()
            var session = try LearnerSession(workbook: workbook)
            let (chapter, exercise) = try workbook.exercise(named: arguments.only)
            guard let view = try session.nextHint(for: exercise, in: chapter, restart: arguments.has(.restart)) else {
                Terminal.say(wrap("This copy of the workbook has no hints for \(exercise.id) (they are kept in \(Layout.hints(chapter))). The lesson, `workbook lesson \(chapter.number)`, explains the idea.", width: Terminal.width))
                return 1
            }
            let style = Style.automatic
            Terminal.say(style.bold("Hints for \(exercise.id) \(exercise.title)") + " (\(view.steps.count) of \(view.total))")
            for step in view.steps {
                Terminal.say("")
                Terminal.say(style.bold("\(step.name):"))
                Terminal.say(renderMarkdown(step.text))
            }
            Terminal.say("")
            Terminal.say(style.dim(wrap(view.isLast
                ? "That was the last step. Once \(exercise.id) passes, `workbook solution \(exercise.id)` shows the reference solution."
                : "Run `workbook hint \(exercise.id)` again for the next step.", width: Terminal.width)))
            return 0
        })
}

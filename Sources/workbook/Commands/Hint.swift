import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

extension Command {
    /// What `hint` takes.
    struct HintFlags: FlagSet {
        let restart = Flag("--reset", help: "start this exercise's hints from the first step")
    }

    static let hint: Command = Command(
        name: .hint,
        abstract: "the next hint for an exercise, one step at a time",
        arguments: .one("exercise", example: "1.1"),
        discussion: """
        Shows the next hint for an exercise: first a question, then a direction, then the shape of the \
        fix. Each call shows one more step (and the ones before it). In a student copy, the hints are \
        the ones the teacher handed out, and the last step comes once a check of the exercise has failed.
        """,
        flags: HintFlags.self,
        audience: .hints,
        run: { arguments in
            let workbook = try currentWorkbook()
            var session = try LearnerSession(workbook: workbook)
            let named = try workbook.exercise(named: arguments.only)
            let (chapter, exercise) = (named.chapter, named.exercise)
            guard let view = try session.nextHint(for: exercise, in: chapter, restart: arguments[\.restart]) else {
                let hints = workbook.exportedHints
                let said = Says.noHints(for: exercise.id, handedOut: hints?.level, exported: hints != nil,
                                        hintsFile: Layout.hints(chapter))
                Terminal.say(wrap("\(said) \(Says.lessonExplains(chapter: chapter.number))", width: Terminal.width))
                return 1
            }
            let style = Terminal.style
            Terminal.say(style.bold(Says.hintsHeading(exercise.id, exercise.title)) + Says.hintsShown(view.steps.count, of: view.total))
            for step in view.steps {
                Terminal.say("")
                Terminal.say(style.bold("\(step.name):"))
                Terminal.say(renderMarkdown(step.text))
            }
            Terminal.say("")
            let next = if view.lastStepWaits {
                Says.lastHintWaits(exercise.id)
            } else if !view.isLast {
                Says.nextHint(exercise.id)
            } else if workbook.exportedHints == nil {
                Says.lastHintThenSolution(exercise.id)
            } else {
                Says.lastHint(chapter: chapter.number)
            }
            Terminal.say(style.dim(wrap(next, width: Terminal.width)))
            return 0
        })
}

import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

extension Command {
    /// What a command without flags takes.
    struct NoFlags: FlagSet {}

    static let progress: Command = Command(
        name: .progress,
        abstract: "what is done, and the next exercise to work on",
        arguments: .none,
        discussion: """
        Shows every chapter's exercises, which are done (passed \(Says.command("check"))), and the next one to \
        work on, with the file to open and the lesson to read. In a student copy, each exercise's points too.
        """,
        flags: NoFlags.self,
        run: { _ in
            let workbook = try currentWorkbook()
            let session = try LearnerSession(workbook: workbook)
            let style = Terminal.style
            let (done, total) = session.progress
            // A student copy: the points its workbook.lock assigns.
            let points = (try? WorkbookLock.read(root: workbook.root))?.assignment
            Terminal.say(style.bold("Dispatch Workbook") + " — " + Says.done(done, of: total)
                + (points.map { Says.assignmentWorth($0.maxScore) } ?? ""))
            for chapter in workbook.chapters {
                Terminal.say("")
                Terminal.say(style.bold("Chapter \(chapter.number) — \(chapter.title)"))
                Terminal.say(style.dim(wrap(chapter.summary, indent: "  ", width: Terminal.width)))
                for exercise in chapter.exercises {
                    let mark = session.isDone(exercise) ? style.pass : style.dim("·")
                    let worth = points?.points[exercise.id].map { style.dim("  \($0) points") } ?? ""
                    Terminal.say("  \(mark) \(exercise.id) \(exercise.title)\(worth)")
                }
            }
            Terminal.say("")
            guard let next = session.next else {
                Terminal.say(style.green(Says.everyExerciseDone))
                return 0
            }
            Terminal.say("Next: \(style.bold("\(next.exercise.id) \(next.exercise.title)"))")
            for step in Says.nextSteps(lesson: Layout.lesson(next.chapter), chapter: next.chapter.number,
                                       file: Layout.exerciseFile(next.chapter, next.exercise), exercise: next.exercise.id) {
                Terminal.say(step)
            }
            return 0
        })

    static let lesson: Command = Command(
        name: .lesson,
        abstract: "read a chapter's lesson",
        arguments: .one("chapter", example: "1"),
        discussion: """
        Prints a chapter's lesson (through a pager on a terminal). The lesson is also the \
        \(Layout.lessonName) next to the chapter's exercises.
        """,
        flags: NoFlags.self,
        run: { arguments in
            let workbook = try currentWorkbook()
            let chapter = try workbook.chapter(of: arguments.only)
            try Terminal.page(workbook.lessonFile(chapter))
            return 0
        })
}

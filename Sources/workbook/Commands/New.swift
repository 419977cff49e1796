import Foundation
import WorkbookCore
import WorkbookEngine
#if WORKBOOK_MAINTAINERS
import WorkbookMaintainer
#endif

extension Command {
    /// What `new` takes.
    struct NewFlags: FlagSet {
        let exerciseID = Flag("--id", .text(name: "N.M"), help: "the exercise's number (default: the chapter's next free one)")
        let exerciseFile = Flag("--file", .text(name: "NAME.swift"), help: "the exercise's file, named after its type (default: made from the title, \"A bounded buffer\" → BoundedBuffer.swift)")
    }

    static let new: Command = Command(
        name: .new,
        abstract: "maintainers: start a new exercise, every piece in place",
        arguments: .these(["chapter", "title"], example: "5 \"A bounded buffer\""),
        discussion: """
        For maintainers: adds an exercise to a chapter, with every piece the workbook needs — its entry \
        in \(Layout.chapterManifest), the starter in \(SourceSet.exercises.folder)/ and its kept copy in \
        \(Layout.testsFolder)/Starters/, the solution in \(SourceSet.solutions.folder)/, its suite in \
        \(Layout.testsFolder)/<Chapter>Tests/, its hint ladder, a section of the lesson, and one cell per \
        dimension — each saying TODO where you write. The suite's one test fails until you write the \
        suite. Prints every file it wrote, at the line to start from. Never writes over a file: an \
        exercise number, file or type that exists is refused, and nothing is written.

        Then `selftest --static` passes and lists what is still to write, in seconds; the full \
        `selftest <chapter>` fails until it is written.
        """,
        flags: NewFlags.self,
        audience: .workbook,
        run: { arguments in
            #if WORKBOOK_MAINTAINERS
            let workbook = try currentWorkbook()
            let request = NewExercise.Request(chapter: arguments.positional[0], title: arguments.positional[1],
                                              id: arguments[\.exerciseID], file: arguments[\.exerciseFile])
            do throws(NewExerciseError) {
                let new = try NewExercise.plan(request, in: workbook) { path in
                    try? String(contentsOf: workbook.layout.url(path), encoding: .utf8)
                }
                try new.write(root: workbook.root)
                Terminal.say("Exercise \(new.exercise.id) \(new.exercise.title), in chapter \(new.chapter.number):")
                for piece in new.pieces {
                    Terminal.say("\(piece.path):\(piece.line):1: \(piece.replacing == nil ? "new" : "added"): \(piece.what)")
                }
                Terminal.say(wrap("Next: write each TODO — \(Says.command("selftest --static")) lists those left, in seconds; set \"expectedFailure\" to the kind the starter must fail with, then prove it with \(Says.command("selftest \(new.chapter.number)")).", width: Terminal.width))
                return 0
            } catch {
                Terminal.warn("workbook new: \(error)")
                if case .cannotAdd = error { return 1 }
                return 2
            }
            #else
            try runInMaintainersBuild(.new)
            #endif
        })
}

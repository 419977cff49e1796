import Foundation
import WorkbookCore
import WorkbookEngine

/// The README of a student copy, in place of the workbook's own (which is for its maintainers and
/// teachers): what is assigned and for how many points, what to do, how it is graded, what a student
/// may not change, and what the hints give.
package enum StudentReadme {
    /// The README for `assignment` over `workbook`'s chapters, with hints at `hints`.
    package static func render(assignment: ClassroomAssignment, workbook: Workbook, hints: HintLevel) -> String {
        let exercises = assignment.exercises(in: workbook)
        let first = exercises.first?.exercise.id ?? "1.1", firstChapter = exercises.first?.chapter.number ?? 1
        let tool = ClassroomWorkflow.tool
        var text = """
        # Dispatch Workbook — your assignment

        Fix the broken Grand Central Dispatch code of the exercises below. Every exercise is graded under
        the **Thread Sanitizer**, so a data race you cannot see fails it as surely as a wrong result.

        ## What is assigned

        | exercise | file to fix | points |
        |---|---|---|

        """
        for (chapter, exercise, points) in exercises {
            text += "| \(exercise.id) \(exercise.title) | `\(Layout.exerciseFile(chapter, exercise))` | \(points) |\n"
        }
        text += """

        **\(assignment.maxScore) points in all.** An exercise earns all its points when every test of it
        passes under the Thread Sanitizer, and none otherwise: a data race, a wrong result, a hang, a
        crash, or a file that does not compile earns nothing.

        Each chapter's lesson is next to its exercises (or `\(tool) lesson <chapter>` prints it):

        \(workbook.chapters.filter { assignment.chapters.contains($0.number) }.map { "- Chapter \($0.number): `\(Layout.lesson($0))`" }.joined(separator: "\n"))

        ## What to do

        You need Swift \(Toolchain.floor) or later with the Thread Sanitizer: on Linux a toolchain from
        swift.org, on macOS Xcode \(Toolchain.floorXcode) or later.

        ```sh
        \(tool)                       # what is assigned, what is done, what to do next
        \(tool) check \(first)             # grade one exercise (or a chapter: `check \(firstChapter)`, or all: `check`)
        \(tool) watch                 # check again on every save
        \(tool) check --classroom     # your points, counted as the grading counts them

        """
        if hints != .none {
            text += "\(tool) hint \(first)              # a hint, one step at a time\n"
        }
        text += """
        ```

        Edit only the exercise files in the table: files you add beside them are left out when you are
        graded. Commit and push when you like: every push is graded.
        `\(tool) reset \(first)` puts an exercise's starter back (your file is saved in
        `\(Layout.backupsFolder)/` first).

        ## How you are graded

        On every push, `\(ClassroomWorkflow.path)` puts the protected files (below) back as the
        assignment's first commit has them, removes files added beside the exercises, builds, and runs `\(ClassroomWorkflow.command(for: first))`
        for each exercise in turn: an exercise whose check passes earns its points. If your teacher grades
        the class with `workbook grade` instead, the rule is the same: only your exercise files are taken,
        into a fresh copy of the assignment.

        ## What you may not change

        \(Self.protectedList). These are put back before grading, so a change to them never counts (an
        easier test cannot make an exercise pass), and your teacher sees that you changed them, beside
        your grade. `\(tool) check --classroom` names any of them you changed and does not grade the
        chapters they concern until you undo the change.

        ## Hints

        \(Self.hintsParagraph(hints, first: first, tool: tool))

        """
        return text
    }

    /// The protected paths, as a sentence's list.
    private static var protectedList: String {
        let paths = ProtectedPaths.files.map { "`\($0)`" }
            + ProtectedPaths.folders.map { "everything in `\($0)/`" }
            + ["each chapter's `\(ProtectedPaths.manifestName)`", "`\(WorkbookLock.fileName)`"]
        return paths.dropLast().joined(separator: ", ") + " and " + paths[paths.count - 1]
    }

    /// What the hints give at `level`, and how to ask for them.
    private static func hintsParagraph(_ level: HintLevel, first: String, tool: String) -> String {
        switch level {
        case .none:
            "This assignment comes without hints: the lessons explain the ideas each exercise needs."
        case .all, .nudges:
            """
            `\(tool) hint \(first)` shows one more step each time you ask. This assignment's hints are
            \(level.summary). The last step comes once a check of that exercise has failed — try first.
            """
        }
    }
}

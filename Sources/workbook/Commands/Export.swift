import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

extension Command {
    /// What `export` takes.
    struct ExportFlags: FlagSet {
        let student = Flag("--student", .path, help: "the folder to write the student copy into (new or empty)")
        let chapters = Flag("--chapters", .text(name: "LIST"), help: "the chapters to assign, e.g. 1,3 (default: all)")
        let points = Flag("--points", .path, help: "a JSON file of points per exercise, e.g. {\"1.1\": 5, \"3.2\": 20} (default: 10 each)")
        let hints = Flag("--hints", .text(name: HintLevel.allCases.map(\.rawValue).joined(separator: "|")),
                         help: "the hints handed out: " + HintLevel.allCases.map { "\($0.rawValue), \($0.summary)" }.joined(separator: "; ")
                             + " (default: \(HintLevel.default.rawValue))")
        let assignmentName = Flag("--name", .text(name: "NAME"), help: "what the gradebook calls the assignment (default: the student copy's folder name)")
    }

    static let export: Command = Command(
        name: .export,
        abstract: "teachers: write a student copy with autograding",
        arguments: .none,
        discussion: """
        For teachers: writes a student copy of the workbook into a new folder: exactly the assigned \
        chapters, each exercise as its starter (the kept copy in Tests/Starters, or the committed one — \
        never the file in your working tree), the tool and the package, the measurements the lessons \
        cite, a README for students, and the hints you choose; not the reference solutions, the near \
        misses, the other chapters, or the workbook's own tests, CI and documents. It adds a GitHub Classroom autograding workflow \
        (\(ClassroomWorkflow.path): one graded step per exercise) and \(WorkbookLock.fileName) (the \
        assigned chapters, the points, and a checksum of every file a student must not change). The \
        copy is a git repository with one commit: push it to a template repository and create the \
        assignment from it. Beside it in the folder, but never committed, \(TeacherFile.fileName) keeps \
        the fingerprints of the correct answers the workbook knows, for `grade` to flag a submission \
        that is one of them.
        """,
        flags: ExportFlags.self,
        audience: .workbook,
        run: { arguments in
            guard let folder = arguments[\.student] else {
                throw UsageError(message: "say where the student copy goes: --student DIR.")
            }
            let workbook = try currentWorkbook()
            let pointsFile = try arguments[\.points].map { path in
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw UsageError(message: "cannot read the points file '\(path)'.")
                }
                return data
            }
            let hints = try arguments[\.hints].map(HintLevel.init(choice:)) ?? .default
            var assignment = try ClassroomAssignment(workbook: workbook, chapterList: arguments[\.chapters], pointsFile: pointsFile)
            let destination = URL(fileURLWithPath: folder)
            assignment.name = arguments[\.assignmentName] ?? destination.standardizedFileURL.lastPathComponent
            let written = try StudentCopy(workbook: workbook, assignment: assignment, hints: hints).write(to: destination)
            let exercises = assignment.exercises(in: workbook)
            Terminal.say("Wrote a student copy to \(destination.path): \(written.files) files, "
                + "\(exercises.count) exercises from chapter\(assignment.chapters.count == 1 ? "" : "s") "
                + "\(assignment.chapters.map(String.init).joined(separator: ", ")), \(assignment.maxScore) points; hints: \(hints.summary).")
            Terminal.say(wrap("Every exercise file in it is the starter, whatever your working tree holds"
                + (written.notHandedOut.isEmpty ? "."
                    : ": your \(written.notHandedOut.joined(separator: ", ")) \(written.notHandedOut.count == 1 ? "differs" : "differ") from the starter and \(written.notHandedOut.count == 1 ? "was" : "were") not handed out."),
                width: Terminal.width))
            Terminal.say(wrap("Kept for you, out of its git history: \(TeacherFile.fileName), the fingerprints of every correct answer the "
                + "workbook knows for these exercises. \(Says.command("grade")), run in this folder, flags a submission that is one of them; "
                + "keep the file out of anything you hand out.", width: Terminal.width))
            Terminal.say(written.committed
                ? "It is a git repository with one commit. Next: push it to a new template repository and create the assignment from it."
                : "git was not found, so it is not a repository yet: run `git init && git add -A && git commit -m start` in it before pushing.")
            return 0
        })
}

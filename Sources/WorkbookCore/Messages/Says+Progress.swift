import Foundation

/// What `workbook progress` tells a learner: how far they are, and where to go next.
extension Says {
    /// "3 of 19 exercises done".
    package static func done(_ done: Int, of total: Int) -> String {
        "\(done) of \(total) exercises done"
    }

    /// After the count in a student copy: what the assignment is worth.
    package static func assignmentWorth(_ points: Int) -> String {
        " · the assignment is worth \(points) points (\(command("check --classroom")) counts yours)"
    }

    /// When nothing is left to do.
    package static let everyExerciseDone = "Every exercise is done. Well synchronized!"

    /// The three steps for the next exercise: the lesson to read, the file to edit, the check to run.
    package static func nextSteps(lesson: String, chapter: Int, file: String, exercise: String) -> [String] {
        ["  read   \(lesson)   (or \(command("lesson \(chapter)")))",
         "  edit   \(file)",
         "  check  \(CommandForm.current.line("check \(exercise)"))"]
    }
}

extension Says {
    /// A command of the workbook's own (`selftest`, `solution`, …) run in a student copy.
    package static func notInStudentCopy(_ command: String) -> String {
        "`\(command)` needs the workbook itself (its solutions and tests), which a student copy leaves with the teacher; it does not work here. \(Says.command("help")) lists what does."
    }
}

import Foundation

/// What `workbook progress` tells a learner: how far they are, and where to go next.
extension Says {
    /// "3 of 19 exercises done".
    public static func done(_ done: Int, of total: Int) -> String {
        "\(done) of \(total) exercises done"
    }

    /// After the count in a student copy: what the assignment is worth.
    public static func assignmentWorth(_ points: Int) -> String {
        " · the assignment is worth \(points) points (`workbook check --classroom` counts yours)"
    }

    /// When nothing is left to do.
    public static let everyExerciseDone = "Every exercise is done. Well synchronized!"

    /// The three steps for the next exercise: the lesson to read, the file to edit, the check to run.
    public static func nextSteps(lesson: String, chapter: Int, file: String, exercise: String) -> [String] {
        ["  read   \(lesson)   (or `workbook lesson \(chapter)`)",
         "  edit   \(file)",
         "  check  workbook check \(exercise)"]
    }
}

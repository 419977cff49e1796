import Foundation

/// What `workbook hint` tells a learner: the steps shown, and what comes after them.
extension Says {
    /// Where the idea behind an exercise of `chapter` is explained.
    package static func lessonExplains(chapter: Int) -> String {
        "The lesson, \(command("lesson \(chapter)")), explains the idea."
    }

    /// Why there is no hint for `exercise` here, followed by ``lessonExplains(chapter:)``: `level` is
    /// the hints a student copy was handed out with, `nil` in the workbook itself (whose hints are
    /// kept in `hintsFile`).
    package static func noHints(for exercise: String, handedOut level: HintLevel?, exported: Bool, hintsFile: String) -> String {
        switch (exported, level) {
        case (false, _): "This copy of the workbook has no hints for \(exercise) (they are kept in \(hintsFile))."
        case (true, .none?): "Your teacher handed out this assignment without hints."
        case (true, _): "The hints handed out with this assignment do not cover \(exercise)."
        }
    }

    /// The heading of the hints shown for an exercise (in bold), and how many of its steps they are.
    package static func hintsHeading(_ exercise: String, _ title: String) -> String { "Hints for \(exercise) \(title)" }
    package static func hintsShown(_ shown: Int, of total: Int) -> String { " (\(shown) of \(total))" }

    /// After the hints: the last step waits for a failed check.
    package static func lastHintWaits(_ exercise: String) -> String {
        "The last step comes once a check of \(exercise) has failed: try your fix, run \(command("check \(exercise)")), then ask again."
    }

    /// After the hints: more steps remain.
    package static func nextHint(_ exercise: String) -> String {
        "Run \(command("hint \(exercise)")) again for the next step."
    }

    /// After the last step, in the workbook itself: the solution once the exercise passes.
    package static func lastHintThenSolution(_ exercise: String) -> String {
        "That was the last step. Once \(exercise) passes, \(command("solution \(exercise)")) shows the reference solution."
    }

    /// After the last step, in a student copy: the lesson.
    package static func lastHint(chapter: Int) -> String {
        "That was the last step. \(lessonExplains(chapter: chapter))"
    }
}

/// What `workbook watch` tells a learner.
extension Says {
    /// When watching starts.
    package static let watchStarts = "Checking every exercise once; then save a file to check it again. Ctrl-C stops."

    /// A round's heading: when, and the files saved.
    package static func watchRound(at time: String, saved: [String]) -> String {
        "— \(time) — saved \(saved.joined(separator: ", "))"
    }

    /// When a round could not check.
    package static func couldNotCheck(_ error: any Error) -> String { "Could not check: \(error)" }
}

import Foundation

/// The sentences of `workbook explain` and `check --explain` (see ``RaceTimeline``).
extension Says {
    /// The drawing's first line.
    static func explainTitle(_ exercise: Exercise, title: String) -> String {
        "\(exercise.id) \(exercise.title) — the \(title) TSan saw, step by step"
    }

    /// Above a thread's column: the first thread TSan saw, then the second.
    static func explainThread(isFirst: Bool, thread: String) -> String {
        (isFirst ? "first: " : "then: ") + thread
    }

    /// Under a learner's line: the access made there. `variable`: its name, when the line names one.
    static func explainAccess(isWrite: Bool, variable: String?, first: Bool) -> String {
        let verb = isWrite ? "writes" : "reads"
        let what = variable.map { "`\($0)`" } ?? "here"
        return first ? "\(verb) \(what)" : "\(verb) \(what) too"
    }

    /// The row between the threads: what is missing between the access above and the one below
    /// (not a moment in time).
    static let explainSeparator = "no ordering TSan saw between these two accesses"

    /// Under a function's declaration, when TSan kept no line of it (often so for a Swift access race).
    static func explainOnlyFunction(isWrite: Bool, function: String) -> String {
        "▲ \(isWrite ? "changes" : "reads") something in \(function); TSan kept no line"
    }

    /// A frame in the learner's file whose line the symbolizer lost.
    static let explainLineUnknown = "(TSan lost this line)"

    /// An access made outside the learner's file (by the tests, reading what the learner's code wrote).
    static func explainOutsideFile(_ exercise: Exercise, place: String?) -> String {
        "outside \(exercise.file)" + (place.map { " (\($0), the tests reading your result)" } ?? "")
    }

    /// One access, for the sentence under the drawing.
    struct ExplainedAccess {
        /// "thread T5, a test thread"
        var thread: String
        var isWrite: Bool
        var line: Int?
        /// The function, where TSan kept no line.
        var function: String?
    }

    /// What the separator means, for these two accesses.
    static func explainNoEdge(first: ExplainedAccess, second: ExplainedAccess, what: String?) -> String {
        let memory = what.map { "`\($0)`" } ?? "the same memory"
        func did(_ access: ExplainedAccess) -> String {
            "\(access.thread) \(access.isWrite ? "wrote" : "read") \(memory)" + (access.line.map { " at line \($0)" } ?? access.function.map { " in \($0)" } ?? "")
        }
        return "First \(did(first)); then \(did(second)). TSan saw no happens-before edge between them: no queue, lock, group or semaphore that it watches ordered the first before the second, so nothing but timing put them in this order. That is a race, whether or not they overlapped in this run."
    }

    /// The question the drawing ends with.
    static let explainQuestion = "Which line would you move, or guard?"

    /// Where to go after the drawing.
    static func explainNext(_ exercise: Exercise) -> String {
        "Then run \(command("check \(exercise.id)")) again; \(command("hint \(exercise.id)")) helps if you are stuck."
    }

    /// A report that names none of the learner's lines on either thread.
    static func explainNoTimeline(_ exercise: Exercise) -> String {
        "TSan's report names no line of \(exercise.file), so there is no timeline to draw. \(command("check \(exercise.id) --verbose")) shows the report as TSan printed it."
    }

    /// `explain` on an exercise that passed.
    static func explainPassed(_ exercise: Exercise) -> String {
        "\(exercise.id) passes: TSan reported no race in it, so there is nothing to explain."
    }

    /// `explain` on an exercise that failed, but not by a race.
    static func explainNotARace(_ exercise: Exercise, kind: String) -> String {
        "\(exercise.id) fails, but not by a race (\(kind)): `explain` draws races only. The check above says what went wrong; \(command("hint \(exercise.id)")) gives a hint."
    }
}

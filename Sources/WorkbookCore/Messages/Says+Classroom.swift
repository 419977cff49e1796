import Foundation

/// What the classroom layer says: the reason beside each graded exercise, the note beside a
/// submission, and what it says of a file or an option it cannot use (``ClassroomError``'s words).
extension Says {
    // MARK: Grades

    /// A passing exercise's reason; `runs`: how many times it was graded.
    static func passed(runs: Int) -> String {
        runs > 1 ? "Passed all \(runs) runs." : "Passed."
    }

    /// A failing exercise's reason: its kind, how many runs failed, its first finding's message.
    static func failed(_ kind: FailureKind, failedRuns: Int, of runs: Int, first: String?) -> String {
        kind.label.prefix(1).uppercased() + kind.label.dropFirst() + (runs > 1 ? " (failed \(failedRuns) of \(runs) runs)" : "")
            + (first.map { ": " + $0 } ?? ".")
    }

    static let notRunByThisCheck = "Not graded: this check did not run it."

    /// Why a chapter is not graded by a student's own check: `changes`, each as its violation says it.
    static func tampered(chapter: Int, changes: [String]) -> String {
        "Chapter \(chapter) is not graded here because " + changes.joined(separator: ", ") + " (see \(Layout.lockFile)). "
            + "Grading puts protected files back before it grades, so the change will not count there; undo it to see here the points you will get."
    }

    /// A submission's note in the gradebook when its grading ran out of time.
    package static func gradingTimedOut(after seconds: Double) -> String {
        "timed out: grading took more than \(Int(seconds)) s"
    }

    /// A submission's note when its grading gave no grade; `said`: the last thing it said.
    package static func submissionNotGraded(_ said: String) -> String {
        "not graded: \(said)"
    }

    package static let submissionDidNotBuild = "did not build"

    // MARK: The assignment and its points file

    static let noChaptersAssigned = "No chapters are assigned."

    static func noChapter(_ number: Int, known: [Int]) -> String {
        "There is no chapter \(number). The chapters are \(known.map(String.init).joined(separator: ", "))."
    }

    static func noChapter(named name: String, known: [Int]) -> String {
        "There is no chapter called '\(name)'. Try one of: \(known.map(String.init).joined(separator: ", "))."
    }

    static func notAChapterList(_ list: String) -> String {
        "'\(list)' is not a list of chapters; write them like 1,3."
    }

    /// One problem of a points file: an exercise outside the `assigned` chapters, or none at all.
    static func pointsForUnassigned(_ id: String, exists: Bool, assigned: [Int]) -> String {
        exists ? "\(id) is not in the assigned chapters (\(assigned.map(String.init).joined(separator: ", ")))."
            : "there is no exercise \(id)."
    }

    /// One problem of a points file: `written` as the file has it.
    static func pointsNotPositive(_ id: String, written: String) -> String {
        "\(id) is worth \(written); points must be a positive whole number."
    }

    static let pointsNotAnObject = #"The points file must be a JSON object of exercise ids and points, like {"1.1": 5, "3.2": 20}."#

    static func pointsFileUnusable(_ problems: [String]) -> String {
        "The points file cannot be used:\n" + problems.map { "  - " + $0 }.joined(separator: "\n")
    }

    static func hintsChoice(_ text: String, choices: [String]) -> String {
        "--hints takes \(choices.dropLast().joined(separator: ", ")) or \(choices.last ?? ""), not '\(text)'."
    }

    // MARK: Gradebooks and their CSV

    package static func studentTwice(_ student: String) -> String {
        "\(student) is in the gradebook twice."
    }

    package static func unpriced(_ exercise: String) -> String {
        "The gradebook does not say what \(exercise) is worth."
    }

    /// Gradebooks of different columns; each as "1.1 (10), 1.2 (5)".
    package static func differentColumns(_ first: String, _ other: String) -> String {
        "These gradebooks grade different exercises or points (\(first) and \(other)); only shards of one batch can be merged."
    }

    package static func differentAssignments(_ first: String, _ other: String) -> String {
        "These gradebooks grade different assignments ('\(first)' and '\(other)'); only shards of one batch can be merged."
    }

    /// A merge that met a student twice (`problem`: what the gradebook said).
    package static func twoShards(_ problem: String) -> String {
        problem + " Each student belongs to one shard only; were two shards given the same K/N?"
    }

    package static let emptyCSV = "The gradebook CSV is empty: it has no header."

    package static func notAGradebookHeader(_ header: [String], trailer: [String]) -> String {
        "This is not a gradebook CSV: its header is '\(header.joined(separator: ","))', not student, '<id> points (max N)', '<id> verdict' and '<id> reason' for each exercise, then \(trailer.joined(separator: ", "))."
    }

    /// Where in the CSV a row's problem is: its `row` is 1-based, the header being row 1.
    package static func csvRow(_ row: Int) -> String {
        "Row \(row) of the gradebook CSV"
    }

    package static func fieldCount(_ place: String, _ count: Int, header: Int) -> String {
        "\(place) has \(count) fields; the header has \(header)."
    }

    package static func pointsNotWhole(_ place: String, _ id: String, _ points: String) -> String {
        "\(place) gives \(id) '\(points)' points, not a whole number."
    }

    package static func unknownVerdict(_ place: String, _ id: String, _ code: String, known: [String]) -> String {
        "\(place) gives \(id) the verdict '\(code)'; the verdicts are \(known.joined(separator: ", "))."
    }

    package static func wrongTotal(_ place: String, written: String, sum: Int) -> String {
        "\(place) has the total '\(written)', but its points add up to \(sum)."
    }

    package static func wrongMaxTotal(_ place: String, written: String, sum: Int) -> String {
        "\(place) has the max total '\(written)', but the header's points add up to \(sum)."
    }

    package static func quoteInsideField(record: Int) -> String {
        "Record \(record) of the CSV has a quote inside a field that is not quoted."
    }

    package static let csvEndsInQuote = "The CSV ends inside a quoted field."

    package static func noShard(_ index: Int, of count: Int) -> String {
        "There is no shard \(index)/\(count): a shard is K/N with 1 ≤ K ≤ N, like 2/4."
    }

    package static func notAShard(_ text: String) -> String {
        "'\(text)' is not a shard: write K/N, like 2/4 for the second of four."
    }

    // MARK: The student copy and its lock

    package static func copyFolderNotEmpty(_ path: String) -> String {
        "\(path) already exists and is not empty; export writes only into a new or empty folder, so nothing there is overwritten."
    }

    package static func copyInsideWorkbook(_ folder: String, path: String) -> String {
        "The student copy cannot go inside \(folder) of the workbook (\(path)); choose a folder outside it."
    }

    package static func noLock(_ file: String, in root: String) -> String {
        "There is no \(file) in \(root): only a student copy made by \(command("export")) is graded as a classroom assignment."
    }

    package static func lockUnreadable(_ file: String, _ error: any Error) -> String {
        "\(file) cannot be read: \(error)"
    }

    package static func lockFormat(_ file: String, _ version: Int, reads current: Int) -> String {
        "\(file) is in format \(version); this workbook reads format \(current). Export the assignment again with this workbook."
    }
}

/// What the gradebook says of code the same as a correct answer or as another student's.
extension Says {
    package static let referenceSolution = "the reference solution"

    /// `grade` in a folder without the teacher's file.
    package static let noTeacherFile = "Note: there is no \(Layout.teacherFile) here (`export` keeps it in the folder it writes, out of git), so submissions are compared with each other but not with the correct answers."

    package static func correctAlternative(_ name: String) -> String {
        "a correct alternative the workbook keeps (\(name))"
    }

    /// Code the same as other students', by name.
    package static func sameAsStudents(_ students: [String]) -> String {
        "the same as " + students.joined(separator: ", ")
    }

    /// A student's exercises whose code is the same as a correct answer or another student's:
    /// "1.1 is the reference solution; 1.2 is the same as bob".
    package static func sameCode(_ flags: [(exercise: String, said: String)]) -> String {
        flags.map { "\($0.exercise) is \($0.said)" }.joined(separator: "; ")
    }
}

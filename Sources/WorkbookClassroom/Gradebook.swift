import Foundation
import WorkbookCore
import WorkbookEngine

/// The teacher's gradebook: a row per student, and per assigned exercise the points, the verdict
/// and why.
package struct Gradebook: Sendable, Equatable {
    /// One student's result for one exercise.
    package struct Cell: Sendable, Equatable {
        package var points: Int
        package var verdict: ClassroomVerdict
        /// Why, in one line ("Data race: …"); empty when nothing needs saying.
        package var reason: String

        package init(points: Int, verdict: ClassroomVerdict, reason: String = "") {
            self.points = points
            self.verdict = verdict
            self.reason = Gradebook.oneLine(reason)
        }

        /// No points, not graded: the cell of an exercise a submission never got to.
        static let notGraded = Cell(points: 0, verdict: .notGraded)
    }

    /// One student.
    package struct Row: Sendable, Equatable {
        /// The name of the submission's folder.
        package var student: String
        /// By exercise id.
        package var cells: [String: Cell]
        /// The protected files the submission changed, added or deleted. They were put back before
        /// grading: the points come from the originals, and this says that the student changed them.
        package var tampered: [String]
        /// What went wrong with the submission as a whole, like "did not build" or "timed out"; empty
        /// when nothing did.
        package var note: String
        /// The commit graded — the submission's `HEAD` — and when it was committed (ISO 8601); empty
        /// when the submission is no git repository.
        package var commit = ""
        package var commitDate = ""
        /// When the submission was graded (ISO 8601).
        package var gradedAt = ""
        /// The fingerprint (``CodeFingerprint``) of each exercise file the student changed from its
        /// starter, by exercise id: what finds the same code in two submissions.
        var fingerprints: [String: String] = [:]
        /// The exercises whose code is a correct answer the workbook keeps, and which one ("the
        /// reference solution"): from the teacher's fingerprints (``TeacherFile``).
        var knownAnswers: [String: String] = [:]
        /// The exercises whose code another student of this gradebook submitted too, with their
        /// names: found by the gradebook, from every row's fingerprints.
        var sameAs: [String: [String]] = [:]

        package init(student: String, cells: [String: Cell], tampered: [String] = [], note: String = "") {
            self.student = student
            self.cells = cells
            self.tampered = tampered
            self.note = note
        }

        /// A row from a classroom grade of the submission's exercise files in a pristine copy of the
        /// assignment; `tampered` are the protected files the submission itself changed.
        package init(student: String, grade: ClassroomGrade, tampered: [String] = [], note: String = "") {
            self.init(student: student,
                      cells: Dictionary(uniqueKeysWithValues: grade.items.map {
                          ($0.exercise, Cell(points: $0.points, verdict: $0.verdict, reason: $0.verdict == .pass ? "" : $0.reason))
                      }),
                      tampered: Array(Set(grade.violations.map(\.path) + tampered)).sorted(), note: note)
        }

        /// The cell of an exercise; not graded when the row has none.
        package func cell(_ exercise: String) -> Cell { cells[exercise] ?? .notGraded }

        /// Points in all.
        var total: Int { cells.values.map(\.points).reduce(0, +) }

        /// What a teacher should look at: each exercise whose code is a known correct answer or
        /// another student's, in the columns' order; empty when none is.
        func sameCode(in exercises: [String]) -> String {
            Says.sameCode(exercises.flatMap { id in
                (knownAnswers[id].map { [(id, $0)] } ?? []) + (sameAs[id].map { [(id, Says.sameAsStudents($0))] } ?? [])
            })
        }
    }

    /// The assigned exercises' ids, in the order of the columns.
    package let exercises: [String]
    /// The points each exercise is worth, by id.
    let maxPoints: [String: Int]
    /// Every student, sorted by name.
    package let rows: [Row]
    /// The assignment's name (`export --name`); empty when unknown.
    package let assignment: String

    /// A gradebook of `rows` over `exercises`, each worth its `maxPoints`: each row gets a not-graded
    /// cell for each exercise it lacks, and loses any cell of an exercise not in `exercises`; the
    /// rows that submitted the same code for an exercise are told of each other. A student named
    /// twice, or an exercise without its points, is a bad-input ``ClassroomError``.
    package init(exercises: [String], maxPoints: [String: Int], rows: [Row], assignment: String = "") throws {
        var seen: Set<String> = []
        for row in rows where !seen.insert(row.student).inserted {
            throw ClassroomError.badInput(Says.studentTwice(row.student))
        }
        if let missing = exercises.first(where: { maxPoints[$0] == nil }) {
            throw ClassroomError.badInput(Says.unpriced(missing))
        }
        self.exercises = exercises
        self.maxPoints = maxPoints.filter { exercises.contains($0.key) }
        self.assignment = assignment
        let sorted = rows.sorted { $0.student < $1.student }
        self.rows = sorted.map { row in
            var row = row
            row.cells = Dictionary(uniqueKeysWithValues: exercises.map { ($0, row.cell($0)) })
            row.fingerprints = row.fingerprints.filter { exercises.contains($0.key) }
            row.sameAs = Dictionary(uniqueKeysWithValues: exercises.compactMap { id in
                guard let mine = row.fingerprints[id] else { return nil }
                let others = sorted.filter { $0.student != row.student && $0.fingerprints[id] == mine }.map(\.student)
                return others.isEmpty ? nil : (id, others)
            })
            return row
        }
    }

    /// The most points a student can get.
    package var maxTotal: Int { exercises.compactMap { maxPoints[$0] }.reduce(0, +) }

    /// One line about a student for the teacher's terminal: points, verdicts counted, protected files
    /// changed, the note. "ada: 70 of 130 points · 7 pass, 2 race, 1 compile · 2 protected files
    /// changed (put back before grading)".
    package func summary(of row: Row) -> String {
        let counts = ClassroomVerdict.allCases.compactMap { verdict -> String? in
            let count = exercises.filter { row.cell($0).verdict == verdict }.count
            return count == 0 ? nil : "\(count) \(verdict.code)"
        }
        var parts = ["\(row.student): \(row.total) of \(maxTotal) points", counts.joined(separator: ", ")]
        if !row.tampered.isEmpty {
            parts.append("\(row.tampered.count) protected file\(row.tampered.count == 1 ? "" : "s") changed (put back before grading)")
        }
        if !row.note.isEmpty { parts.append(Self.oneLine(row.note)) }
        let same = row.sameCode(in: exercises)
        if !same.isEmpty { parts.append("same code: " + same) }
        return parts.filter { !$0.isEmpty }.joined(separator: " · ")
    }

    /// `text` on one line (its whitespace runs made one space): as many of its sentences as fit in
    /// 300 characters, and never less than the first — a sentence is never cut.
    static func oneLine(_ text: String) -> String {
        var kept = ""
        for sentence in Says.sentences(in: text) {
            let longer = kept.isEmpty ? sentence : kept + " " + sentence
            guard kept.isEmpty || longer.count <= 300 else { break }
            kept = longer
        }
        return kept
    }

    /// Joins gradebooks of the same exercises, like the CSVs of the shards of one batch. A student
    /// in two of them, or gradebooks of different exercises or points, is a bad-input ``ClassroomError``.
    package static func merge(_ books: [Gradebook]) throws -> Gradebook {
        guard let first = books.first else { return try Gradebook(exercises: [], maxPoints: [:], rows: []) }
        if let other = books.first(where: { $0.exercises != first.exercises || $0.maxPoints != first.maxPoints }) {
            throw ClassroomError.badInput(Says.differentColumns(first.columnsSaid, other.columnsSaid))
        }
        if let other = books.first(where: { $0.assignment != first.assignment }) {
            throw ClassroomError.badInput(Says.differentAssignments(first.assignment, other.assignment))
        }
        do {
            // The same code is looked for across the shards again, from every row's fingerprints.
            return try Gradebook(exercises: first.exercises, maxPoints: first.maxPoints, rows: books.flatMap(\.rows),
                                 assignment: first.assignment)
        } catch let error as ClassroomError {
            throw ClassroomError.badInput(Says.twoShards(error.description))
        }
    }

    /// "1.1 (10), 1.2 (20)".
    private var columnsSaid: String {
        exercises.map { "\($0) (\(maxPoints[$0] ?? 0))" }.joined(separator: ", ")
    }
}

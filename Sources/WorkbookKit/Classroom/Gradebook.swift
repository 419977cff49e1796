import Foundation

/// The teacher's gradebook: a row per student, and per assigned exercise the points and the verdict.
public struct Gradebook: Sendable, Equatable {
    /// One student's result for one exercise.
    public struct Cell: Sendable, Equatable {
        public var points: Int
        public var verdict: ClassroomVerdict

        public init(points: Int, verdict: ClassroomVerdict) {
            self.points = points
            self.verdict = verdict
        }

        /// No points, not graded: the cell of an exercise a submission never got to.
        public static let notGraded = Cell(points: 0, verdict: .notGraded)
    }

    /// One student.
    public struct Row: Sendable, Equatable {
        /// The name of the submission's folder.
        public var student: String
        /// By exercise id.
        public var cells: [String: Cell]
        /// The protected files the submission changed, added or deleted.
        public var tampered: [String]
        /// What went wrong with the submission as a whole, like "did not build" or "timed out"; empty
        /// when nothing did.
        public var note: String

        public init(student: String, cells: [String: Cell], tampered: [String] = [], note: String = "") {
            self.student = student
            self.cells = cells
            self.tampered = tampered
            self.note = note
        }

        /// A row from a student copy's classroom grade.
        public init(student: String, grade: ClassroomGrade, note: String = "") {
            self.init(student: student,
                      cells: Dictionary(uniqueKeysWithValues: grade.items.map { ($0.exercise, Cell(points: $0.points, verdict: $0.verdict)) }),
                      tampered: grade.violations.map(\.path), note: note)
        }

        /// The cell of an exercise; not graded when the row has none.
        public func cell(_ exercise: String) -> Cell { cells[exercise] ?? .notGraded }

        /// Points in all.
        public var total: Int { cells.values.map(\.points).reduce(0, +) }
    }

    /// The assigned exercises' ids, in the order of the columns.
    public let exercises: [String]
    /// Every student, sorted by name.
    public let rows: [Row]

    /// A gradebook of `rows` over `exercises`: each row gets a not-graded cell for each exercise it
    /// lacks, and loses any cell of an exercise not in `exercises`. A student named twice is a
    /// bad-input ``ClassroomError``.
    public init(exercises: [String], rows: [Row]) throws {
        var seen: Set<String> = []
        for row in rows where !seen.insert(row.student).inserted {
            throw ClassroomError.badInput("\(row.student) is in the gradebook twice.")
        }
        self.exercises = exercises
        self.rows = rows.sorted { $0.student < $1.student }.map { row in
            var row = row
            row.cells = Dictionary(uniqueKeysWithValues: exercises.map { ($0, row.cell($0)) })
            return row
        }
    }

    /// Joins gradebooks of the same exercises, like the CSVs of the shards of one batch. A student
    /// in two of them, or gradebooks of different exercises, is a bad-input ``ClassroomError``.
    public static func merge(_ books: [Gradebook]) throws -> Gradebook {
        guard let first = books.first else { return try Gradebook(exercises: [], rows: []) }
        if let other = books.first(where: { $0.exercises != first.exercises }) {
            throw ClassroomError.badInput(
                "These gradebooks grade different exercises (\(first.exercises.joined(separator: ", ")) and \(other.exercises.joined(separator: ", "))); only shards of one batch can be merged.")
        }
        do {
            return try Gradebook(exercises: first.exercises, rows: books.flatMap(\.rows))
        } catch let error as ClassroomError {
            throw ClassroomError.badInput(error.description + " Each student belongs to one shard only; were two shards given the same K/N?")
        }
    }
}

// MARK: - CSV

extension Gradebook {
    /// Between the paths of the `tampered` column.
    private static let pathSeparator = "; "

    /// The header: student, then `<id> points` and `<id> verdict` per exercise, total, tampered, note.
    private static func header(_ exercises: [String]) -> [String] {
        ["student"] + exercises.flatMap { ["\($0) points", "\($0) verdict"] } + ["total", "tampered", "note"]
    }

    /// The gradebook as CSV (RFC 4180: CRLF line ends, fields quoted when they hold a comma, a quote
    /// or a line break). Verdicts are ``ClassroomVerdict/code``s.
    public func csv() -> String {
        let records = [Self.header(exercises)] + rows.map { row in
            [row.student]
                + exercises.flatMap { id in [String(row.cell(id).points), row.cell(id).verdict.code] }
                + [String(row.total), row.tampered.joined(separator: Self.pathSeparator), row.note]
        }
        return records.map { $0.map(CSV.field).joined(separator: ",") + "\r\n" }.joined()
    }

    /// Reads a gradebook back from ``csv()``'s text (for merging the shards of a batch). Anything else
    /// — another header, a number that is not one, an unknown verdict, a total that is not the sum of
    /// the row's points — is a bad-input ``ClassroomError``.
    public init(csv text: String) throws {
        var records = try CSV.records(text)
        guard !records.isEmpty else { throw ClassroomError.badInput("The gradebook CSV is empty: it has no header.") }
        let header = records.removeFirst()
        let columns = (header.count - 4) / 2
        let exercises = header.count >= 4 && header.count % 2 == 0
            ? (0..<columns).map { String(header[1 + 2 * $0].dropLast(" points".count)) } : []
        guard header == Self.header(exercises) else {
            throw ClassroomError.badInput(
                "This is not a gradebook CSV: its header is '\(header.joined(separator: ","))', not student, '<id> points' and '<id> verdict' for each exercise, total, tampered, note.")
        }
        let rows = try records.enumerated().map { number, fields in
            let place = "Row \(number + 2) of the gradebook CSV"
            guard fields.count == header.count else {
                throw ClassroomError.badInput("\(place) has \(fields.count) fields; the header has \(header.count).")
            }
            var cells: [String: Cell] = [:]
            for (column, id) in exercises.enumerated() {
                let points = fields[1 + 2 * column], code = fields[2 + 2 * column]
                guard let value = Int(points), value >= 0 else {
                    throw ClassroomError.badInput("\(place) gives \(id) '\(points)' points, not a whole number.")
                }
                guard let verdict = ClassroomVerdict(code: code) else {
                    throw ClassroomError.badInput(
                        "\(place) gives \(id) the verdict '\(code)'; the verdicts are \(ClassroomVerdict.allCases.map(\.code).joined(separator: ", ")).")
                }
                cells[id] = Cell(points: value, verdict: verdict)
            }
            let tampered = fields[header.count - 2]
            let row = Row(student: fields[0], cells: cells,
                          tampered: tampered.isEmpty ? [] : tampered.components(separatedBy: Self.pathSeparator),
                          note: fields[header.count - 1])
            guard fields[header.count - 3] == String(row.total) else {
                throw ClassroomError.badInput(
                    "\(place) has the total '\(fields[header.count - 3])', but its points add up to \(row.total).")
            }
            return row
        }
        try self.init(exercises: exercises, rows: rows)
    }
}

/// RFC 4180 fields and records.
private enum CSV {
    /// A field, quoted when it holds a comma, a double quote or a line break (its quotes doubled).
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The records of a CSV text, each a list of fields. Lines may end in CRLF or LF; a last line
    /// without one counts, an empty last line does not.
    static func records(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            if quoted {
                if scalar == "\"" {
                    if pending == "\"" { field.unicodeScalars.append("\""); pending = scalars.next() } else { quoted = false }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty:
                quoted = true
            case "\"":
                throw ClassroomError.badInput("Record \(records.count + 1) of the CSV has a quote inside a field that is not quoted.")
            case ",":
                record.append(field)
                field = ""
            case "\r" where pending == "\n":
                break
            case "\n", "\r":
                record.append(field)
                records.append(record)
                record = []
                field = ""
            default:
                field.unicodeScalars.append(scalar)
            }
        }
        if quoted { throw ClassroomError.badInput("The CSV ends inside a quoted field.") }
        if !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }
}

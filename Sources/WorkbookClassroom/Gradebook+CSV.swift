import Foundation
import WorkbookCore
import WorkbookEngine

/// The gradebook as CSV, read back from CSV, and saved without losing an older one.
package extension Gradebook {
    /// Between the paths of the changed-files column.
    private static let pathSeparator = "; "
    /// The columns after the exercises'.
    private static let trailer = ["total", "max total", "changed protected files", "note", "same code",
                                  "commit", "commit date", "graded at", "assignment", "fingerprints"]
    /// Between the entries of the same-code and fingerprints columns.
    private static let entrySeparator = "; "

    /// An exercise's points column: "1.1 points (max 10)".
    private static func pointsColumn(_ id: String, _ max: Int) -> String { "\(id) points (max \(max))" }

    /// The header: student; `<id> points (max N)`, `<id> verdict` and `<id> reason` per exercise;
    /// total, max total, changed protected files, note; the exercises whose code is a known correct
    /// answer or another student's; the commit graded, its date, when it was graded, the
    /// assignment; the fingerprints of the exercises the student changed (`1.1=9f2c…`).
    private func header() -> [String] {
        ["student"] + exercises.flatMap { [Self.pointsColumn($0, maxPoints[$0] ?? 0), "\($0) verdict", "\($0) reason"] } + Self.trailer
    }

    /// The gradebook as CSV (RFC 4180: CRLF line ends, fields quoted when they hold a comma, a quote
    /// or a line break). Verdicts are ``ClassroomVerdict/code``s. A field a spreadsheet would take for
    /// a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage return) is written with a
    /// leading `'`, so that it shows as text; so is one that starts with `'`, so that reading it back
    /// gives what was written.
    func csv() -> String {
        // Each record built in steps with its type written out: as one expression of `+`s over
        // arrays and closures it took the type checker 8 s (Swift 6.3.1, Linux).
        var records: [[String]] = [header()]
        for row in rows {
            var record: [String] = [row.student]
            for id in exercises {
                let cell = row.cell(id)
                record += [String(cell.points), cell.verdict.code, cell.reason]
            }
            let fingerprints: [String] = exercises.compactMap { id in row.fingerprints[id].map { "\(id)=\($0)" } }
            record += [String(row.total), String(maxTotal), row.tampered.joined(separator: Self.pathSeparator), row.note,
                       row.sameCode(in: exercises), row.commit, row.commitDate, row.gradedAt, assignment,
                       fingerprints.joined(separator: Self.entrySeparator)]
            records.append(record)
        }
        return records.map { record in record.map { CSV.field(CSV.text($0)) }.joined(separator: ",") + "\r\n" }.joined()
    }

    /// Reads a gradebook back from ``csv()``'s text (for merging the shards of a batch). Anything else
    /// — another header, a number that is not one, an unknown verdict, a total that is not the sum of
    /// the row's points — is a bad-input ``ClassroomError``.
    init(csv text: String) throws {
        var records = try CSV.records(text).map { $0.map(CSV.untext) }
        guard !records.isEmpty else { throw ClassroomError.badInput(Says.emptyCSV) }
        let header = records.removeFirst()
        let width = header.count - 1 - Self.trailer.count
        var exercises: [String] = [], maxPoints: [String: Int] = [:]
        if width >= 0 && width % 3 == 0 {
            for column in stride(from: 1, to: 1 + width, by: 3) {
                guard let match = header[column].wholeMatch(of: /(.+) points \(max (\d+)\)/), let max = Int(match.2) else { break }
                exercises.append(String(match.1))
                maxPoints[String(match.1)] = max
            }
        }
        let expected = (try? Gradebook(exercises: exercises, maxPoints: maxPoints, rows: []))?.header()
        guard header == expected else {
            throw ClassroomError.badInput(Says.notAGradebookHeader(header, trailer: Self.trailer))
        }
        let maxTotal = exercises.compactMap { maxPoints[$0] }.reduce(0, +)
        var assignments: Set<String> = []
        let rows = try records.enumerated().map { number, fields in
            let place = Says.csvRow(number + 2)
            guard fields.count == header.count else {
                throw ClassroomError.badInput(Says.fieldCount(place, fields.count, header: header.count))
            }
            var cells: [String: Cell] = [:]
            for (column, id) in exercises.enumerated() {
                let points = fields[1 + 3 * column], code = fields[2 + 3 * column]
                guard let value = Int(points), value >= 0 else {
                    throw ClassroomError.badInput(Says.pointsNotWhole(place, id, points))
                }
                guard let verdict = ClassroomVerdict(code: code) else {
                    throw ClassroomError.badInput(Says.unknownVerdict(place, id, code, known: ClassroomVerdict.allCases.map(\.code)))
                }
                cells[id] = Cell(points: value, verdict: verdict, reason: fields[3 + 3 * column])
            }
            let trailing = Array(fields.suffix(Self.trailer.count))
            var row = Row(student: fields[0], cells: cells,
                          tampered: trailing[2].isEmpty ? [] : trailing[2].components(separatedBy: Self.pathSeparator),
                          note: trailing[3])
            // The known answers are read back; who else submitted the same code is found again.
            for flag in Self.entries(trailing[4]) {
                guard let verb = flag.range(of: " is ") else { continue }
                let id = String(flag[..<verb.lowerBound]), said = String(flag[verb.upperBound...])
                if !said.hasPrefix(Says.sameAsStudents([])) { row.knownAnswers[id] = said }
            }
            (row.commit, row.commitDate, row.gradedAt) = (trailing[5], trailing[6], trailing[7])
            assignments.insert(trailing[8])
            for entry in Self.entries(trailing[9]) {
                let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { row.fingerprints[parts[0]] = parts[1] }
            }
            guard trailing[0] == String(row.total) else {
                throw ClassroomError.badInput(Says.wrongTotal(place, written: trailing[0], sum: row.total))
            }
            guard trailing[1] == String(maxTotal) else {
                throw ClassroomError.badInput(Says.wrongMaxTotal(place, written: trailing[1], sum: maxTotal))
            }
            return row
        }
        try self.init(exercises: exercises, maxPoints: maxPoints, rows: rows, assignment: assignments.first ?? "")
    }

    /// The entries of a `; `-separated column.
    private static func entries(_ field: String) -> [String] {
        field.isEmpty ? [] : field.components(separatedBy: entrySeparator)
    }
}

package extension Gradebook {
    /// Writes `text` (a gradebook or its report) to `url`. A file already there with other contents
    /// is kept first, beside it, as `<name>.<stamp>.bak`; returns where, or `nil` when nothing was kept.
    static func save(_ text: String, to url: URL, now: Date = Date()) throws -> URL? {
        let data = Data(text.utf8)
        var backup: URL?
        if let old = FileManager.default.contents(atPath: url.path), old != data {
            let kept = url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).\(Starters.stamp(now)).bak")
            try old.write(to: kept, options: .withoutOverwriting)
            backup = kept
        }
        try data.write(to: url, options: .atomic)
        return backup
    }
}

/// RFC 4180 fields and records.
private enum CSV {
    /// What makes a spreadsheet read a field as a formula (OWASP's list), and the mark that makes it text.
    static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]
    static let textMark: Character = "'"

    /// `text` with a leading `'` when a spreadsheet would read it as a formula, or when it starts
    /// with `'` itself (so that ``untext(_:)`` undoes exactly this).
    static func text(_ text: String) -> String {
        guard let first = text.first, formulaStarts.contains(first) || first == textMark else { return text }
        return String(textMark) + text
    }

    /// A field as written before ``text(_:)``.
    static func untext(_ field: String) -> String {
        field.first == textMark ? String(field.dropFirst()) : field
    }

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
                throw ClassroomError.badInput(Says.quoteInsideField(record: records.count + 1))
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
        if quoted { throw ClassroomError.badInput(Says.csvEndsInQuote) }
        if !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }
}

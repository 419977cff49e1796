import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

@Suite("Classroom: gradebook CSV, merging shards")
struct ClassroomGradebookTests {
    typealias Cell = Gradebook.Cell

    func sample() throws -> Gradebook {
        try Gradebook(exercises: ["1.1", "1.2"], maxPoints: ["1.1": 10, "1.2": 5], rows: [
            Gradebook.Row(student: "zoe", cells: ["1.1": Cell(points: 10, verdict: .pass),
                                                  "1.2": Cell(points: 0, verdict: .failed(.hang), reason: "Never finished: 2 s.")]),
            Gradebook.Row(student: "ada, \"the\" first", cells: ["1.1": Cell(points: 0, verdict: .failed(.compile), reason: "Does not compile:\n  cannot find 'q'")],
                          note: "timed out\nafter 20 min"),
            Gradebook.Row(student: "max", cells: ["1.1": Cell(points: 0, verdict: .failed(.wrong), reason: "-1 came back"), "1.2": Cell(points: 5, verdict: .pass)],
                          tampered: ["Package.swift", "Tests/Chapter1LatchTests/X.swift"]),
        ])
    }

    @Test("rows sorted by student; an exercise a row lacks is not graded, an unknown one is dropped; totals add up")
    func rows() throws {
        let book = try Gradebook(exercises: ["1.1", "1.2"], maxPoints: ["1.1": 10, "1.2": 20, "9.9": 50], rows: [
            Gradebook.Row(student: "b", cells: ["1.1": Cell(points: 10, verdict: .pass), "9.9": Cell(points: 50, verdict: .pass)]),
            Gradebook.Row(student: "a", cells: [:], note: "did not build"),
        ])
        #expect(book.rows.map(\.student) == ["a", "b"])
        #expect(book.rows[1].cells.keys.sorted() == ["1.1", "1.2"])
        #expect(book.rows[1].cell("1.2") == .notGraded)
        #expect(book.rows[1].total == 10)
        #expect(book.rows[0].total == 0)
        #expect(book.maxTotal == 30, "the points of the columns only")
        #expect(throws: ClassroomError.self) {
            try Gradebook(exercises: ["1.1"], maxPoints: ["1.1": 10], rows: [Gradebook.Row(student: "a", cells: [:]), Gradebook.Row(student: "a", cells: [:])])
        }
        let unpriced = try #require(throws: ClassroomError.self) { try Gradebook(exercises: ["1.1", "1.2"], maxPoints: ["1.1": 10], rows: []) }
        #expect(unpriced.isBadInput && unpriced.description.contains("what 1.2 is worth"))
    }

    @Test("a row from a classroom grade: each item's points, verdict and one-line reason (none for a pass); the changed files beside")
    func rowFromGrade() throws {
        let workbook = Fixture.workbook
        let items = Fixture.items("1.1", "1.2")
        var passed = CheckReport.Result(chapter: items[0].chapter, exercise: items[0].exercise)
        passed.runs = [ExerciseVerdict(chapter: items[0].chapter, exercise: items[0].exercise, findings: [], testsRun: 1, testsFailed: 0)]
        var failed = CheckReport.Result(chapter: items[1].chapter, exercise: items[1].exercise)
        failed.runs = [ExerciseVerdict(chapter: items[1].chapter, exercise: items[1].exercise,
                                       findings: [Finding(kind: .wrong, message: "Expected true,\n   got false.")], testsRun: 1, testsFailed: 1)]
        let grade = ClassroomGrade(report: CheckReport(results: [passed, failed], runs: 1, buildSeconds: 0, seconds: 0),
                                   assignment: try ClassroomAssignment(workbook: workbook, chapters: [1, 2]),
                                   violations: [], workbook: workbook)
        let row = Gradebook.Row(student: "ada", grade: grade, tampered: ["Tests/Chapter2GroupsTests/Fakes.swift"], note: "slow")
        #expect(row.cell("1.1") == Cell(points: 10, verdict: .pass))
        #expect(row.cell("1.2") == Cell(points: 0, verdict: .failed(.wrong), reason: "Wrong result: Expected true, got false."))
        #expect(row.cell("1.3") == Cell(points: 0, verdict: .notGraded, reason: "Not graded: this check did not run it."))
        #expect(row.cell("2.1").verdict == .notGraded, "a changed file never zeroes a chapter here: grading used the originals")
        #expect(row.tampered == ["Tests/Chapter2GroupsTests/Fakes.swift"])
        #expect(row.total == grade.total)
        #expect(row.note == "slow")
    }

    @Test("a reason is one line that never cuts a sentence: whole sentences up to 300 characters, and at least the first")
    func oneLineReason() {
        #expect(Cell(points: 0, verdict: .failed(.race), reason: " a\n\tb  c ").reason == "a b c")
        let sentence = "Data race: Two threads changed `count` with nothing ordering the two accesses (lines 12 and 14)."
        let many = Cell(points: 0, verdict: .failed(.race), reason: Array(repeating: sentence, count: 5).joined(separator: " ")).reason
        #expect(many == Array(repeating: sentence, count: 3).joined(separator: " "), "as many whole sentences as fit")
        #expect(many.count <= 300)
        let long = "Wrong result: " + Array(repeating: "word", count: 100).joined(separator: " ") + "."
        #expect(Cell(points: 0, verdict: .failed(.wrong), reason: long + " Then more.").reason == long, "a long first sentence is kept whole")
        #expect(Cell(points: 0, verdict: .failed(.wrong), reason: "See e.g. line 3 of File.swift:12. Next.").reason
            == "See e.g. line 3 of File.swift:12. Next.", "e.g. and a file's place end no sentence")
    }

    @Test("CSV: the header with each exercise's points, RFC 4180 quoting, CRLF line ends, verdict codes and reasons, total and max total, changed files joined")
    func writing() throws {
        let csv = try sample().csv()
        let lines = csv.components(separatedBy: "\r\n")
        #expect(lines[0] == "student,1.1 points (max 10),1.1 verdict,1.1 reason,1.2 points (max 5),1.2 verdict,1.2 reason,total,max total,changed protected files,note,"
                + "same code,commit,commit date,graded at,assignment,fingerprints")
        #expect(lines[1] == "\"ada, \"\"the\"\" first\",0,compile,Does not compile: cannot find 'q',0,not graded,,0,15,,\"timed out\nafter 20 min\",,,,,,",
                "a comma, quotes and a line break quoted; the line break inside the field kept as it is")
        #expect(lines[2] == "max,0,wrong,'-1 came back,5,pass,,5,15,Package.swift; Tests/Chapter1LatchTests/X.swift,,,,,,,",
                "a reason starting with - is written as text")
        #expect(lines[3] == "zoe,10,pass,,0,hang,Never finished: 2 s.,10,15,,,,,,,,")
        #expect(lines.count == 5 && lines[4] == "", "every record ends in CRLF")
    }

    @Test("CSV: a field a spreadsheet would run as a formula starts with ', and reads back as it was",
          arguments: ["=1+1", "+33 1", "-2", "@SUM(A1)", "\tx", "'quoted"])
    func formulaInjection(text: String) throws {
        let book = try Gradebook(exercises: ["1.1"], maxPoints: ["1.1": 10], rows: [
            Gradebook.Row(student: text, cells: ["1.1": Cell(points: 0, verdict: .failed(.wrong), reason: "x")], note: text),
        ])
        let fields = try #require(book.csv().components(separatedBy: "\r\n").dropFirst().first).split(separator: ",", omittingEmptySubsequences: false)
        #expect(fields.first.map { $0.hasPrefix("'") || $0.hasPrefix("\"'") } == true, "written as text: \(fields)")
        #expect(try Gradebook(csv: book.csv()) == book)
    }

    @Test("CSV reads back to the same gradebook")
    func roundTrip() throws {
        let book = try sample()
        #expect(try Gradebook(csv: book.csv()) == book)
        let empty = try Gradebook(exercises: ["1.1"], maxPoints: ["1.1": 7], rows: [])
        #expect(try Gradebook(csv: empty.csv()) == empty, "a shard with no submissions")
    }

    @Test("a hand-written CSV with LF line ends, quoted and text-marked fields reads as meant")
    func readingFixture() throws {
        let text = String(decoding: try ClassroomFixture.data("gradebook-lf.csv"), as: UTF8.self)
        let book = try Gradebook(csv: text)
        #expect(book.exercises == ["1.1", "1.2"])
        #expect(book.maxPoints == ["1.1": 10, "1.2": 5])
        #expect(book.rows.map(\.student) == ["=HYPERLINK(1)", "ada", #"bob, the "builder""#, "cy"])
        #expect(book.rows[1].cell("1.2") == Cell(points: 0, verdict: .failed(.race), reason: "Data race: two threads changed `pending`, unordered."))
        #expect(book.rows[2].note == "did not build:\nerror: no such module")
        #expect(book.rows[2].cell("1.1") == .notGraded)
        #expect(book.rows[3].tampered == ["Tests/Chapter1LatchTests/Exercise1_1Tests.swift", "Package.swift"])
        #expect(book.rows[3].cell("1.1").reason == "-1 was returned")
        #expect(book.rows[3].total == 5)
        #expect(book.rows[0].note == "@note")
    }

    @Test("a CSV that is not a gradebook is bad input, saying where", arguments: [
        ("name,1.1 points (max 10),1.1 verdict,1.1 reason,total,max total,changed protected files,note\r\n", "not a gradebook CSV"),
        ("student,1.1 points,1.1 verdict,1.1 reason,total,max total,changed protected files,note\r\n", "not a gradebook CSV"),
        ("student,1.1 points (max 10),1.2 verdict,1.1 reason,total,max total,changed protected files,note\r\n", "not a gradebook CSV"),
        ("student,1.1 points (max 10),1.1 verdict,total,max total,changed protected files,note\r\n", "not a gradebook CSV"),
        ("student,total,tampered\r\n", "not a gradebook CSV"),
        ("", "empty"),
        (Self.head + "ada,ten,pass,,10,10,,,,,,,,\r\n", "Row 2 of the gradebook CSV gives 1.1 'ten' points"),
        (Self.head + "ada,'-1,pass,,-1,10,,,,,,,,\r\n", "'-1' points"),
        (Self.head + "ada,10,passed,,10,10,,,,,,,,\r\n", "the verdict 'passed'"),
        (Self.head + "ada,10,pass,,12,10,,,,,,,,\r\n", "has the total '12', but its points add up to 10"),
        (Self.head + "ada,10,pass,,10,20,,,,,,,,\r\n", "has the max total '20', but the header's points add up to 10"),
        (Self.head + "ada,10,pass,,10\r\n", "has 5 fields; the header has 14"),
        (Self.head + "\"ada,10,pass,,10,10,,,,,,,,\r\n", "ends inside a quoted field"),
        (Self.head + "ad\"a,10,pass,,10,10,,,,,,,,\r\n", "quote inside a field"),
        (Self.head + "ada,10,pass,,10,10,,,,,,,,\r\nada,0,race,,0,10,,,,,,,,\r\n", "ada is in the gradebook twice"),
    ])
    func badCSV(text: String, message: String) {
        #expect { try Gradebook(csv: text) } throws: { error in
            let error = error as? ClassroomError
            return error?.isBadInput == true && error?.description.contains(message) == true
        }
    }

    /// A good header of one exercise worth 10.
    static let head = "student,1.1 points (max 10),1.1 verdict,1.1 reason,total,max total,changed protected files,note,"
        + "same code,commit,commit date,graded at,assignment,fingerprints\r\n"

    @Test("a line per student: points of the most there were, verdicts counted, changed files, the note")
    func summary() throws {
        let book = try sample()
        #expect(book.summary(of: book.rows[0]) == "ada, \"the\" first: 0 of 15 points · 1 compile, 1 not graded · timed out after 20 min")
        #expect(book.summary(of: book.rows[1]) == "max: 5 of 15 points · 1 pass, 1 wrong · 2 protected files changed (put back before grading)")
        #expect(book.summary(of: book.rows[2]) == "zoe: 10 of 15 points · 1 pass, 1 hang")
    }

    @Test("saving over an older gradebook keeps it first, beside it; the same text, or no file, keeps nothing")
    func save() throws {
        let folder = try ClassroomFixture.scratch("save")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("gradebook.csv")
        #expect(try Gradebook.save("first", to: file) == nil)
        #expect(try Gradebook.save("first", to: file) == nil)
        let kept = try #require(try Gradebook.save("second", to: file, now: Date(timeIntervalSince1970: 0)))
        #expect(kept.lastPathComponent == "gradebook.csv.19700101-000000-000.bak")
        #expect(try String(contentsOf: kept, encoding: .utf8) == "first")
        #expect(try String(contentsOf: file, encoding: .utf8) == "second")
    }

    @Test("merging shards: the union of their rows sorted by student; an empty shard is fine")
    func merge() throws {
        let book = try sample()
        let first = try Gradebook(exercises: book.exercises, maxPoints: book.maxPoints, rows: [book.rows[0], book.rows[2]])
        let second = try Gradebook(exercises: book.exercises, maxPoints: book.maxPoints, rows: [book.rows[1]])
        let empty = try Gradebook(exercises: book.exercises, maxPoints: book.maxPoints, rows: [])
        let merged = try Gradebook.merge([Gradebook(csv: second.csv()), Gradebook(csv: empty.csv()), Gradebook(csv: first.csv())])
        #expect(merged == book)
        #expect(merged.rows.map(\.student) == book.rows.map(\.student).sorted())
    }

    @Test("merging: a student in two shards, or shards of different exercises or points, is bad input")
    func mergeConflicts() throws {
        let book = try sample()
        let twice = try #require(throws: ClassroomError.self) { try Gradebook.merge([book, book]) }
        #expect(twice.isBadInput)
        #expect(twice.description.contains("is in the gradebook twice"))
        #expect(twice.description.contains("one shard"))
        for other in [try Gradebook(exercises: ["1.1", "1.3"], maxPoints: ["1.1": 10, "1.3": 5], rows: []),
                      try Gradebook(exercises: ["1.1", "1.2"], maxPoints: ["1.1": 10, "1.2": 6], rows: [])] {
            let different = try #require(throws: ClassroomError.self) { try Gradebook.merge([book, other]) }
            #expect(different.isBadInput)
            #expect(different.description.contains("different exercises or points"))
        }
    }

    @Test("a shard is K/N with 1 ≤ K ≤ N", arguments: ["2/4", " 1 / 1 ", "3/3"])
    func shardParsing(text: String) throws {
        let shard = try Shard(parsing: text)
        #expect("\(shard)" == text.replacingOccurrences(of: " ", with: ""))
    }

    @Test("anything else is bad input", arguments: ["0/3", "4/3", "1/0", "-1/2", "a/b", "3", "1/2/3", "", "/2"])
    func badShards(text: String) {
        #expect { try Shard(parsing: text) } throws: { error in (error as? ClassroomError)?.isBadInput == true }
    }

    @Test("shards pick every N-th of the sorted items from the K-th: disjoint, and together everything")
    func shardSelection() throws {
        let names = ["s07", "s03", "s10", "s01", "s05", "s02", "s09", "s04", "s08", "s06"]
        #expect(try Shard(parsing: "2/3").select(names) == ["s02", "s05", "s08"])
        #expect(try Shard(parsing: "1/1").select(names) == names.sorted())
        #expect(try Shard(parsing: "4/4").select(["a", "b"]).isEmpty)
        let parts = try (1...4).map { try Shard(index: $0, count: 4).select(names) }
        #expect(parts.flatMap { $0 }.sorted() == names.sorted())
        #expect(Set(parts.flatMap { $0 }).count == names.count)
    }
}

import Foundation
import Testing
@testable import WorkbookKit

@Suite("Classroom: gradebook CSV, merging shards")
struct ClassroomGradebookTests {
    typealias Cell = Gradebook.Cell

    func sample() throws -> Gradebook {
        try Gradebook(exercises: ["1.1", "1.2"], rows: [
            Gradebook.Row(student: "zoe", cells: ["1.1": Cell(points: 10, verdict: .pass), "1.2": Cell(points: 0, verdict: .failed(.hang))]),
            Gradebook.Row(student: "ada, \"the\" first", cells: ["1.1": Cell(points: 0, verdict: .failed(.compile))],
                          note: "timed out\nafter 20 min"),
            Gradebook.Row(student: "max", cells: ["1.1": Cell(points: 0, verdict: .tampered), "1.2": Cell(points: 5, verdict: .pass)],
                          tampered: ["Package.swift", "Tests/Chapter1LatchTests/X.swift"]),
        ])
    }

    @Test("rows sorted by student; an exercise a row lacks is not graded, an unknown one is dropped; totals add up")
    func rows() throws {
        let book = try Gradebook(exercises: ["1.1", "1.2"], rows: [
            Gradebook.Row(student: "b", cells: ["1.1": Cell(points: 10, verdict: .pass), "9.9": Cell(points: 50, verdict: .pass)]),
            Gradebook.Row(student: "a", cells: [:], note: "did not build"),
        ])
        #expect(book.rows.map(\.student) == ["a", "b"])
        #expect(book.rows[1].cells.keys.sorted() == ["1.1", "1.2"])
        #expect(book.rows[1].cell("1.2") == .notGraded)
        #expect(book.rows[1].total == 10)
        #expect(book.rows[0].total == 0)
        #expect(throws: ClassroomError.self) {
            try Gradebook(exercises: ["1.1"], rows: [Gradebook.Row(student: "a", cells: [:]), Gradebook.Row(student: "a", cells: [:])])
        }
    }

    @Test("a row from a classroom grade: each item's points and verdict, the violations' paths as tamper flags")
    func rowFromGrade() throws {
        let workbook = Fixture.workbook
        let (chapter, exercise) = Fixture.items("1.1")[0]
        var result = CheckReport.Result(chapter: chapter, exercise: exercise)
        result.runs = [ExerciseVerdict(chapter: chapter, exercise: exercise, findings: [], testsRun: 1, testsFailed: 0)]
        let grade = ClassroomGrade(report: CheckReport(results: [result], runs: 1, buildSeconds: 0, seconds: 0),
                                   assignment: try ClassroomAssignment(workbook: workbook, chapters: [1, 2]),
                                   violations: [LockViolation(kind: .changed, path: "Tests/Chapter2GroupsTests/Fakes.swift")],
                                   workbook: workbook)
        let row = Gradebook.Row(student: "ada", grade: grade, note: "slow")
        #expect(row.cell("1.1") == Cell(points: 10, verdict: .pass))
        #expect(row.cell("1.2") == .notGraded)
        #expect(row.cell("2.1") == Cell(points: 0, verdict: .tampered))
        #expect(row.tampered == ["Tests/Chapter2GroupsTests/Fakes.swift"])
        #expect(row.total == grade.total)
        #expect(row.note == "slow")
    }

    @Test("CSV: the header, RFC 4180 quoting, CRLF line ends, verdict codes, tamper flags joined")
    func writing() throws {
        let csv = try sample().csv()
        let lines = csv.components(separatedBy: "\r\n")
        #expect(lines[0] == "student,1.1 points,1.1 verdict,1.2 points,1.2 verdict,total,tampered,note")
        #expect(lines[1] == "\"ada, \"\"the\"\" first\",0,compile,0,not graded,0,,\"timed out\nafter 20 min\"",
                "a comma, quotes and a line break quoted; the line break inside the field kept as it is")
        #expect(lines[2] == "max,0,tampered,5,pass,5,Package.swift; Tests/Chapter1LatchTests/X.swift,")
        #expect(lines[3] == "zoe,10,pass,0,hang,10,,")
        #expect(lines.count == 5 && lines[4] == "", "every record ends in CRLF")
    }

    @Test("CSV reads back to the same gradebook")
    func roundTrip() throws {
        let book = try sample()
        #expect(try Gradebook(csv: book.csv()) == book)
        let empty = try Gradebook(exercises: ["1.1"], rows: [])
        #expect(try Gradebook(csv: empty.csv()) == empty, "a shard with no submissions")
    }

    @Test("a hand-written CSV with LF line ends and quoted fields reads as meant")
    func readingFixture() throws {
        let text = String(decoding: try ClassroomFixture.data("gradebook-lf.csv"), as: UTF8.self)
        let book = try Gradebook(csv: text)
        #expect(book.exercises == ["1.1", "1.2"])
        #expect(book.rows.map(\.student) == ["ada", #"bob, the "builder""#, "cy"])
        #expect(book.rows[0].cell("1.2") == Cell(points: 0, verdict: .failed(.race)))
        #expect(book.rows[1].note == "did not build:\nerror: no such module")
        #expect(book.rows[1].cell("1.1") == .notGraded)
        #expect(book.rows[2].tampered == ["Tests/Chapter1LatchTests/Exercise1_1Tests.swift", "Package.swift"])
        #expect(book.rows[2].total == 5)
    }

    @Test("a CSV that is not a gradebook is bad input, saying where", arguments: [
        ("name,1.1 points,1.1 verdict,total,tampered,note\r\n", "not a gradebook CSV"),
        ("student,1.1 points,1.2 verdict,total,tampered,note\r\n", "not a gradebook CSV"),
        ("student,total,tampered\r\n", "not a gradebook CSV"),
        ("", "empty"),
        ("student,1.1 points,1.1 verdict,total,tampered,note\r\nada,ten,pass,10,,\r\n", "Row 2 of the gradebook CSV gives 1.1 'ten' points"),
        ("student,1.1 points,1.1 verdict,total,tampered,note\r\nada,-1,pass,-1,,\r\n", "'-1' points"),
        ("student,1.1 points,1.1 verdict,total,tampered,note\r\nada,10,passed,10,,\r\n", "the verdict 'passed'"),
        ("student,1.1 points,1.1 verdict,total,tampered,note\r\nada,10,pass,12,,\r\n", "has the total '12', but its points add up to 10"),
        ("student,1.1 points,1.1 verdict,total,tampered,note\r\nada,10,pass,10\r\n", "has 4 fields; the header has 6"),
        ("student,1.1 points,1.1 verdict,total,tampered,note\r\n\"ada,10,pass,10,,\r\n", "ends inside a quoted field"),
        ("student,1.1 points,1.1 verdict,total,tampered,note\r\nad\"a,10,pass,10,,\r\n", "quote inside a field"),
        ("student,1.1 points,1.1 verdict,total,tampered,note\r\nada,10,pass,10,,\r\nada,0,race,0,,\r\n", "ada is in the gradebook twice"),
    ])
    func badCSV(text: String, message: String) {
        #expect { try Gradebook(csv: text) } throws: { error in
            let error = error as? ClassroomError
            return error?.isBadInput == true && error?.description.contains(message) == true
        }
    }

    @Test("merging shards: the union of their rows sorted by student; an empty shard is fine")
    func merge() throws {
        let book = try sample()
        let first = try Gradebook(exercises: book.exercises, rows: [book.rows[0], book.rows[2]])
        let second = try Gradebook(exercises: book.exercises, rows: [book.rows[1]])
        let empty = try Gradebook(exercises: book.exercises, rows: [])
        let merged = try Gradebook.merge([Gradebook(csv: second.csv()), Gradebook(csv: empty.csv()), Gradebook(csv: first.csv())])
        #expect(merged == book)
        #expect(merged.rows.map(\.student) == book.rows.map(\.student).sorted())
    }

    @Test("merging: a student in two shards, or shards of different exercises, is bad input")
    func mergeConflicts() throws {
        let book = try sample()
        let twice = try #require(throws: ClassroomError.self) { try Gradebook.merge([book, book]) }
        #expect(twice.isBadInput)
        #expect(twice.description.contains("is in the gradebook twice"))
        #expect(twice.description.contains("one shard"))
        let other = try Gradebook(exercises: ["1.1", "1.3"], rows: [])
        let different = try #require(throws: ClassroomError.self) { try Gradebook.merge([book, other]) }
        #expect(different.isBadInput)
        #expect(different.description.contains("different exercises"))
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

import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

/// What settles a dispute over a grade: the commit graded and when, and code that is the same as a
/// correct answer the workbook knows or as another student's — from fingerprints the teacher keeps
/// and the students never get.
@Suite("Classroom: a gradebook that settles disputes")
struct ClassroomDisputeTests {
    let fm = FileManager.default

    /// A student copy of chapter 1 exported from a copy of the real workbook, and that workbook.
    func exported() throws -> (copy: Workbook, teacher: Workbook, written: StudentCopy.Written) {
        let root = try ClassroomFixture.scratch("teacher")
        try PackageMirror(source: Fixture.packageRoot, copy: root).sync()
        let teacher = try Workbook(root: root)
        var assignment = try ClassroomAssignment(workbook: teacher, chapterList: "1", pointsFile: nil)
        assignment.name = "gcd-week-1"
        let folder = try ClassroomFixture.scratch("copy")
        let written = try StudentCopy(workbook: teacher, assignment: assignment).write(to: folder)
        return (try Workbook(root: folder), teacher, written)
    }

    /// The files git holds in `folder`'s one commit.
    func committed(_ folder: URL) throws -> [String] {
        let listed = try ChildProcess.run("git", ["-C", folder.path, "ls-files"], timeLimit: 60)
        #expect(listed.termination == .exited(0))
        return listed.output.split(separator: "\n").map(String.init)
    }

    @Test("export keeps the correct answers' fingerprints in the copy's folder for the teacher, out of its git history: no committed file holds one")
    func teacherFileNeverShipped() throws {
        let (copy, teacher, written) = try exported()
        defer { try? fm.removeItem(at: copy.root); try? fm.removeItem(at: teacher.root) }
        try #require(written.committed, "git makes the copy a repository")
        let file = try #require(TeacherFile.read(root: copy.root), "the teacher's file is in the folder")
        let named = try teacher.exercise(named: "1.1")
        let (chapter, latch) = (named.chapter, named.exercise)
        let reference = CodeFingerprint.of(try String(contentsOf: teacher.solutionFile(chapter, latch), encoding: .utf8))
        #expect(file.answer("1.1", fingerprint: reference) == Says.referenceSolution)
        #expect(Set(file.answers.keys) == ["1.1", "1.2", "1.3"], "every assigned exercise, no other")
        #expect((file.answers["1.1"]?.count ?? 0) > 1, "the correct alternatives too")

        let history = try committed(copy.root)
        #expect(!history.isEmpty && !history.contains(TeacherFile.fileName))
        let ignored = try ChildProcess.run("git", ["-C", copy.root.path, "check-ignore", TeacherFile.fileName], timeLimit: 60)
        #expect(ignored.termination == .exited(0), "a `git add -A` in the copy leaves it out too")
        let fingerprints = file.answers.values.flatMap { $0.map(\.fingerprint) }
        for path in history {
            let text = String(decoding: try Data(contentsOf: copy.root.appendingPathComponent(path)), as: UTF8.self)
            #expect(!fingerprints.contains(where: text.contains), "\(path) holds a fingerprint of a correct answer")
        }
    }

    @Test("a submission's fingerprints: the exercises changed from the starter (comments and spacing aside), a copied reference solution known as such")
    func submissionFingerprints() throws {
        let (copy, teacher, _) = try exported()
        defer { try? fm.removeItem(at: copy.root); try? fm.removeItem(at: teacher.root) }
        let submission = try ClassroomFixture.scratch("submission")
        defer { try? fm.removeItem(at: submission) }
        let items = try ["1.1", "1.2"].map { try copy.exercise(named: $0) }
        // 1.1: the reference solution, its comments rewritten and its spacing changed.
        let reference = try String(contentsOf: teacher.solutionFile(items[0].chapter, items[0].exercise), encoding: .utf8)
        let disguised = "// My own work!\n" + reference.replacingOccurrences(of: "    ", with: "\t").replacingOccurrences(of: "// ", with: "// ~ ")
        try ClassroomFixture.write(disguised, to: Layout.exerciseFile(items[0].chapter, items[0].exercise), under: submission)
        // 1.2: the starter with a comment added: not changed.
        let starter = try String(contentsOf: copy.exerciseFile(items[1].chapter, items[1].exercise), encoding: .utf8)
        try ClassroomFixture.write("// TODO\n" + starter, to: Layout.exerciseFile(items[1].chapter, items[1].exercise), under: submission)

        let grader = try BatchGrader(workbook: copy, executable: URL(fileURLWithPath: "/bin/false"), platform: Platform(.process), workFolder: submission)
        #expect(grader.comparesWithAnswers)
        let fingerprints = grader.fingerprints(of: submission, exercises: ["1.1", "1.2", "1.3"])
        #expect(Array(fingerprints.keys) == ["1.1"], "only 1.1 differs from its starter; 1.3 is missing")
        #expect(fingerprints["1.1"] == CodeFingerprint.of(reference))
        #expect(grader.teacherFile?.answer("1.1", fingerprint: fingerprints["1.1"] ?? "") == Says.referenceSolution)
        #expect(grader.assignmentName == "gcd-week-1")
    }

    @Test("rows with the same code for an exercise are told of each other, in the CSV, the line per student and the page; merged shards find it across them")
    func sameCodeAcrossStudents() throws {
        func row(_ student: String, _ fingerprints: [String: String], known: [String: String] = [:]) -> Gradebook.Row {
            var row = Gradebook.Row(student: student, cells: ["1.1": .init(points: 10, verdict: .pass), "1.2": .init(points: 10, verdict: .pass)])
            row.fingerprints = fingerprints
            row.knownAnswers = known
            row.commit = "0123456789abcdef0123456789abcdef01234567"
            row.commitDate = "2026-03-01T10:00:00Z"
            row.gradedAt = "2026-03-02T09:00:00Z"
            return row
        }
        let rows = [row("ada", ["1.1": "aaaa", "1.2": "cccc"], known: ["1.1": Says.referenceSolution]),
                    row("bob", ["1.1": "aaaa", "1.2": "dddd"]), row("cy", ["1.2": "eeee"])]
        let book = try Gradebook(exercises: ["1.1", "1.2"], maxPoints: ["1.1": 10, "1.2": 10], rows: rows, assignment: "gcd-week-1")
        #expect(book.rows[0].sameCode(in: book.exercises) == "1.1 is the reference solution; 1.1 is the same as bob")
        #expect(book.rows[1].sameCode(in: book.exercises) == "1.1 is the same as ada")
        #expect(book.rows[2].sameCode(in: book.exercises).isEmpty)
        #expect(book.summary(of: book.rows[1]).hasSuffix(" · same code: 1.1 is the same as ada"))

        let csv = book.csv()
        #expect(csv.contains(",1.1 is the reference solution; 1.1 is the same as bob,0123456789abcdef0123456789abcdef01234567,2026-03-01T10:00:00Z,2026-03-02T09:00:00Z,gcd-week-1,1.1=aaaa; 1.2=cccc\r\n"))
        #expect(try Gradebook(csv: csv) == book, "read back whole")
        // Shards graded apart: the same code is found again when they are merged.
        let apart = try [[rows[0]], [rows[1], rows[2]]].map { try Gradebook(exercises: book.exercises, maxPoints: book.maxPoints, rows: $0, assignment: "gcd-week-1") }
        #expect(apart[0].rows[0].sameCode(in: book.exercises) == "1.1 is the reference solution")
        #expect(try Gradebook.merge(apart.map { try Gradebook(csv: $0.csv()) }) == book)
        let other = try Gradebook(exercises: book.exercises, maxPoints: book.maxPoints, rows: [], assignment: "another")
        #expect(throws: ClassroomError.self) { try Gradebook.merge([apart[0], other]) }

        let page = GradebookHTML.render(book)
        #expect(page.contains("<title>Gradebook — gcd-week-1</title>"))
        #expect(page.contains("Same code</span> (comments and spacing aside): 1.1 is the same as ada"))
        #expect(page.contains("commit 0123456789ab of 2026-03-01T10:00:00Z, graded 2026-03-02T09:00:00Z"))
    }

    @Test("the commit graded and its date, read from the submission's repository; none for a folder that is no repository")
    func commitGraded() throws {
        let folder = try ClassroomFixture.scratch("repo")
        defer { try? fm.removeItem(at: folder) }
        #expect(BatchGrader.commit(of: folder) == ("", ""))
        let date = ["GIT_AUTHOR_DATE": "2026-03-01T10:00:00Z", "GIT_COMMITTER_DATE": "2026-03-01T10:00:00Z"]
        for step in [["init", "-q"], ["-c", "user.name=a", "-c", "user.email=a@localhost", "commit", "-q", "--allow-empty", "-m", "done"]] {
            let result = try ChildProcess.run("git", ["-C", folder.path] + step, environment: date, timeLimit: 60)
            try #require(result.termination == .exited(0), "\(result.output)")
        }
        let (sha, when) = BatchGrader.commit(of: folder)
        #expect(sha.count == 40 && sha.allSatisfy(\.isHexDigit))
        #expect(when == "2026-03-01T10:00:00Z")
    }
}

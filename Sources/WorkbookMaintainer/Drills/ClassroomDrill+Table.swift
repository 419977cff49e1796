import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

extension ClassroomDrill {
    /// Who makes a change: the teacher in the working tree the copy is exported from, or one of the
    /// three students whose pushes are graded.
    enum Student: String, Sendable, CaseIterable {
        case teacher, ada, bo, cy
    }

    /// What a row does to its exercise in the student's folder.
    enum Change: Sendable, Equatable {
        /// The exercise's solution copied over it.
        case solution
        /// A file of `Tests/Fixtures/classroom/` copied over it.
        case fixture(String)
        /// A file of notes that is not Swift put in its chapter's folder (it breaks that chapter's build).
        case notesBeside
        /// A harmless comment appended to its suite's file (a protected file changed).
        case commentInTest
        /// Its suite replaced by one that passes anything (a protected file changed).
        case guttedTest
        /// A line that is not Swift appended to it.
        case notSwift
    }

    /// One row of the drill: a change to one exercise, looked up by id, and the verdicts the student's
    /// own `check --classroom` and the teacher's `grade` must give it (`nil`: not asked).
    struct Row: Sendable {
        var student: Student
        var exercise: String
        var changes: [Change] = []
        /// What `check --classroom` must say of it (always with 0 points when it is no pass).
        var check: ClassroomVerdict? = nil
        /// What `grade` must say: `.pass` with every point, or that failure; `nil`: 0 points.
        var grade: ClassroomVerdict? = nil
    }

    /// The drill, as data. Ada: chapters 1 and 2 solved, notes beside chapter 1 (its build breaks in
    /// her own check), a comment in a chapter 2 test and 5.1's test gutted (both chapters not graded
    /// there), 3.1 broken; `grade` puts the tests back. Bo: chapter 1 solved. Cy: mischief in 1.1.
    /// The teacher's working tree has 1.1 solved, which the export must not hand out. The chapters
    /// named here are the ones assigned; the workbook must have one more, left out.
    static let rows: [Row] = [
        Row(student: .teacher, exercise: "1.1", changes: [.solution]),
        Row(student: .ada, exercise: "1.1", changes: [.solution, .notesBeside], check: .failed(.compile), grade: .pass),
        Row(student: .ada, exercise: "1.2", changes: [.solution], check: .failed(.compile), grade: .pass),
        Row(student: .ada, exercise: "1.3", changes: [.solution], check: .failed(.compile), grade: .pass),
        Row(student: .ada, exercise: "2.1", changes: [.solution, .commentInTest], check: .tampered, grade: .pass),
        Row(student: .ada, exercise: "2.2", changes: [.solution], check: .tampered, grade: .pass),
        Row(student: .ada, exercise: "2.3", changes: [.solution], check: .tampered, grade: .pass),
        Row(student: .ada, exercise: "2.4", changes: [.solution], check: .tampered, grade: .pass),
        Row(student: .ada, exercise: "3.1", changes: [.notSwift], check: .failed(.compile), grade: .failed(.compile)),
        Row(student: .ada, exercise: "5.1", changes: [.guttedTest], check: .tampered, grade: .failed(.race)),
        Row(student: .ada, exercise: "5.2", check: .tampered),
        Row(student: .ada, exercise: "5.3", check: .tampered),
        Row(student: .bo, exercise: "1.1", changes: [.solution], grade: .pass),
        Row(student: .bo, exercise: "1.2", changes: [.solution], grade: .pass),
        Row(student: .bo, exercise: "1.3", changes: [.solution], grade: .pass),
        Row(student: .cy, exercise: "1.1", changes: [.fixture("Mischief.swift")]),
    ]

    /// A row found in the workbook.
    struct Item: Sendable {
        var row: Row
        var chapter: Chapter
        var exercise: Exercise
    }

    /// The rows found in `workbook`, and a failed outcome for each row whose exercise it lacks.
    static func resolve(_ rows: [Row], in workbook: Workbook) -> (items: [Item], missing: [FaultDrill.Outcome]) {
        var items: [Item] = [], missing: [FaultDrill.Outcome] = []
        for row in rows {
            guard let found = workbook.allExercises.first(where: { $0.exercise.id == row.exercise }) else {
                missing.append(.missing(row.exercise, fault: "classroom drill (\(row.student.rawValue))",
                                        expected: "\(row.exercise) in the workbook"))
                continue
            }
            items.append(Item(row: row, chapter: found.chapter, exercise: found.exercise))
        }
        return (items, missing)
    }

    /// The chapters the teacher assigns: those the rows name.
    static func assigned(_ items: [Item]) -> [Int] {
        Set(items.map(\.chapter.number)).sorted()
    }

    /// Makes `item`'s changes in `folder`; the protected files it changed. `port`: the listener's,
    /// written into a fixture's ``portLine``.
    func apply(_ item: Item, in folder: URL, port: UInt16? = nil) throws -> [String] {
        let (chapter, exercise) = (item.chapter, item.exercise)
        let file = Layout.exerciseFile(chapter, exercise), suite = Layout.testFolder(chapter) + "/\(exercise.suite).swift"
        var changed: [String] = []
        for change in item.row.changes {
            switch change {
            case .solution:
                try replace(file, in: folder, with: Data(contentsOf: workbook.solutionFile(chapter, exercise)))
            case let .fixture(name):
                var text = try String(contentsOf: workbook.layout.url(Layout.classroomFixtures).appendingPathComponent(name), encoding: .utf8)
                if let port {
                    guard text.contains(Self.portLine) else {
                        throw WorkbookError.drillSetUp("the classroom drill's \(name) has no line `\(Self.portLine)` to write the listener's port into")
                    }
                    text = text.replacingOccurrences(of: Self.portLine, with: "let drillListenerPort: UInt16 = \(port)")
                }
                try replace(file, in: folder, with: Data(text.utf8))
            case .notesBeside:
                try replace(Self.notes(beside: chapter), in: folder, with: Data("My notes: a latch needs one serial queue.\n".utf8))
            case .commentInTest:
                try replace(suite, in: folder, with: Data(contentsOf: folder.appendingPathComponent(suite)) + Data("\n// an easier test\n".utf8))
                changed.append(suite)
            case .guttedTest:
                try replace(suite, in: folder, with: Data("""
                    import \(chapter.name)
                    import Testing
                    import WorkbookTestSupport

                    @Suite("\(exercise.id) made easy", .gradedUnderTSan)
                    struct \(exercise.suite) {
                        @Test("anything passes") func passes() {}
                    }

                    """.utf8))
                changed.append(suite)
            case .notSwift:
                try replace(file, in: folder, with: Data(contentsOf: folder.appendingPathComponent(file)) + Data("\nthis is not Swift {\n".utf8))
            }
        }
        return changed
    }

    /// Where a ``Change/notesBeside`` row puts its notes.
    static func notes(beside chapter: Chapter) -> String {
        Layout.chapterFolder(chapter) + "/Notes.swift"
    }
}

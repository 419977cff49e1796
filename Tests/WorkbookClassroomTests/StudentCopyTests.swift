import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

@Suite("workbook export: the student copy")
struct StudentCopyTests {
    let fm = FileManager.default

    /// A teacher's working tree: a copy of the real workbook's package, with 1.1 solved in it.
    func teacherWithSolvedLatch() throws -> Workbook {
        let root = try ClassroomFixture.scratch("teacher")
        try PackageMirror(source: Fixture.packageRoot, copy: root).sync()
        let workbook = try Workbook(root: root)
        let named = try workbook.exercise(named: "1.1")
        let (chapter, exercise) = (named.chapter, named.exercise)
        try Data(contentsOf: workbook.solutionFile(chapter, exercise)).write(to: workbook.exerciseFile(chapter, exercise))
        return workbook
    }

    /// Every file under `folder`, by its path from it.
    func files(under folder: URL) -> [String] {
        (fm.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter { path in
            var isFolder: ObjCBool = false
            return fm.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder) && !isFolder.boolValue
        }
    }

    @Test("from a working tree whose 1.1 is solved: the starters, exactly the assigned chapters, the students' README, the nudges; a lock that verifies clean; one commit")
    func export() throws {
        let teacher = try teacherWithSolvedLatch()
        defer { try? fm.removeItem(at: teacher.root) }
        let assignment = try ClassroomAssignment(workbook: teacher, chapterList: "1,3", pointsFile: Data(#"{"3.2": 25}"#.utf8))
        let folder = try ClassroomFixture.scratch("export")
        defer { try? fm.removeItem(at: folder) }
        let written = try StudentCopy(workbook: teacher, assignment: assignment).write(to: folder)
        func exists(_ path: String) -> Bool { fm.fileExists(atPath: folder.appendingPathComponent(path).path) }

        #expect(written.notHandedOut == ["1.1"], "the teacher's solved 1.1 is named")
        let copy = try Workbook(root: folder)
        #expect(copy.chapters.map(\.number) == [1, 3], "exactly the assigned chapters")
        for item in teacher.allExercises {
            let (chapter, exercise) = (item.chapter, item.exercise)
            let assigned = assignment.chapters.contains(chapter.number)
            let handedOut = fm.contents(atPath: folder.appendingPathComponent(Layout.exerciseFile(chapter, exercise)).path)
            if assigned {
                #expect(handedOut == fm.contents(atPath: Fixture.workbook.layout.url(Layout.starterCopy(chapter, exercise)).path),
                        "\(exercise.id): not its starter")
            } else {
                #expect(handedOut == nil, "\(exercise.id) is not assigned")
            }
            #expect(exists(Layout.starterCopy(chapter, exercise)) == assigned, "\(exercise.id): kept starter")
            #expect(exists(Layout.testFolder(chapter)) == assigned, "\(chapter.name): tests")
            #expect(!exists(Layout.nearMissFolder(chapter)), "\(chapter.name): near misses (with correct alternatives) went along")
        }
        let named = try teacher.exercise(named: "1.1")
        let (latchChapter, latch) = (named.chapter, named.exercise)
        #expect(fm.contents(atPath: folder.appendingPathComponent(Layout.exerciseFile(latchChapter, latch)).path)
                != fm.contents(atPath: teacher.exerciseFile(latchChapter, latch).path), "the teacher's answer stayed home")
        #expect(!exists(SourceSet.solutions.folder), "no solutions, and no hints.md in plain text")
        #expect(!files(under: folder).contains { $0.hasSuffix(HintFile.name) })
        #expect(Layout.engineTestTargets.allSatisfy { !exists("\(Layout.testsFolder)/\($0)") } && !exists(Layout.fixturesFolder)
                && !exists(".ci") && !exists(".github/workflows/ci.yml"))
        #expect(exists(ClassroomWorkflow.path) && exists(Layout.packageManifest) && exists("Tests/WorkbookTestSupport"))
        #expect(!exists(Layout.documentationFolder), "the workbook's documents stay home: they are about what the copy leaves out")
        #expect(exists(Layout.measurementsPage), "the measurements the lessons link to and the messages cite")
        var links = 0
        for path in files(under: folder) where path.hasSuffix(".md") {
            let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
            // A link's file (an anchor alone stays in the same file); web links aside.
            for match in Markdown.prose(text).matches(of: /\]\(([^)#\s]+)[^)\s]*\)/) where !match.output.1.contains("://") {
                let target = String(match.output.1)
                let url = folder.appendingPathComponent(path).deletingLastPathComponent().appendingPathComponent(target).standardizedFileURL
                links += 1
                #expect(fm.fileExists(atPath: url.path), "\(path) links to \(target), which the copy does not have")
            }
        }
        #expect(links > 0, "the lessons' links were looked at")

        let readme = try String(contentsOf: folder.appendingPathComponent(StudentCopy.readmeName), encoding: .utf8)
        #expect(readme == StudentReadme.render(assignment: assignment, workbook: copy, hints: .nudges))
        #expect(readme.contains("**75 points in all.**"))
        #expect(readme.contains("| 3.2 \(try teacher.exercise(named: "3.2").exercise.title) | `Exercises/Chapter3Semaphores/"))
        #expect(!readme.lowercased().contains("selftest") && !readme.contains(".ci/") && !readme.contains("Chapter 2"))

        let hints = try #require(ExportedHints.read(root: folder))
        #expect(hints.level == .nudges)
        #expect(hints.exerciseIDs == ["1.1", "1.2", "1.3", "3.1", "3.2", "3.3"])
        for item in copy.allExercises {
            let (chapter, exercise) = (item.chapter, item.exercise)
            #expect(hints.ladder(for: exercise.id).map(\.name) == ["Question", "Direction"], "\(exercise.id)")
            #expect(hints.ladder(for: exercise.id) == Array(teacher.hints(for: exercise, in: chapter).prefix(2)))
        }

        let lock = try WorkbookLock.read(root: folder)
        #expect(lock.assignment == assignment)
        #expect(lock.assignment.points["3.2"] == 25 && lock.assignment.points["1.1"] == 10 && lock.assignment.points["2.1"] == nil)
        #expect(try lock.verify(root: folder).isEmpty)
        #expect(lock.files.keys.contains(ClassroomWorkflow.path))
        #expect(!lock.files.keys.contains { $0.contains("Chapter2") }, "nothing of a chapter not assigned")

        if written.committed {
            let status = try ChildProcess.run("git", ["-C", folder.path, "status", "--porcelain"], timeLimit: 30)
            #expect(status.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "everything committed")
        }
        #expect(throws: ClassroomError.self, "a folder with files in it is never written over") {
            try StudentCopy(workbook: teacher, assignment: assignment).write(to: folder)
        }
        for inside in ["Tests/export-test", "Exercises/export-test"] {
            #expect(throws: ClassroomError.self, "never inside a folder it copies") {
                try StudentCopy(workbook: teacher, assignment: assignment).write(to: teacher.root.appendingPathComponent(inside))
            }
            #expect(!fm.fileExists(atPath: teacher.root.appendingPathComponent(inside).path))
        }
    }

    @Test("--hints all hands out every step; --hints none no step, and says so in the README")
    func hintLevels() throws {
        let workbook = Fixture.workbook
        let assignment = try ClassroomAssignment(workbook: workbook, chapters: [5])
        for level in [HintLevel.all, .none] {
            let folder = try ClassroomFixture.scratch("hints-\(level.rawValue)")
            defer { try? fm.removeItem(at: folder) }
            _ = try StudentCopy(workbook: workbook, assignment: assignment, hints: level).write(to: folder)
            let hints = try #require(ExportedHints.read(root: folder))
            #expect(hints.level == level)
            let readme = try String(contentsOf: folder.appendingPathComponent(StudentCopy.readmeName), encoding: .utf8)
            for item in try Workbook(root: folder).allExercises {
                let (chapter, exercise) = (item.chapter, item.exercise)
                let full = workbook.hints(for: exercise, in: chapter)
                #expect(hints.ladder(for: exercise.id) == (level == .all ? full : []), "\(exercise.id)")
            }
            #expect(readme.contains("workbook hint 5.1") == (level == .all))
            #expect(readme.contains("without hints") == (level == .none))
        }
    }

    @Test("--hints takes all, nudges or none; anything else is bad input naming them")
    func hintChoice() throws {
        #expect(try HintLevel.allCases.map { try HintLevel(choice: $0.rawValue) } == HintLevel.allCases)
        let error = try #require(throws: ClassroomError.self) { try HintLevel(choice: "some") }
        #expect(error.isBadInput && error.description == "--hints takes all, nudges or none, not 'some'.")
    }

    @Test("a starter found neither kept nor in git: nothing is written, and the message says which")
    func missingStarter() throws {
        let empty = try ClassroomFixture.scratch("no-starters")
        defer { try? fm.removeItem(at: empty) }
        let workbook = ClassroomFixture.workbook(at: empty)
        let folder = empty.appendingPathComponent("copy")
        let error = try #require(throws: WorkbookError.self) {
            try StudentCopy(workbook: workbook, assignment: try ClassroomAssignment(workbook: workbook, chapters: [1])).write(to: folder)
        }
        #expect("\(error)".contains("The starter of 1.1"))
        #expect(!fm.fileExists(atPath: folder.path))
    }

    @Test("handed-out hints: the chosen steps, their text not readable as it is, read back the same")
    func exportedHints() throws {
        let ladder = [HintStep(name: "Question", text: "Does anything make it wait?"),
                      HintStep(name: "Direction", text: "Give each latch one queue."),
                      HintStep(name: "Shape", text: "```swift\nlet queue = DispatchQueue(label: \"l\")\n```")]
        #expect(HintLevel.nudges.steps(of: ladder) == Array(ladder.prefix(2)))
        #expect(HintLevel.all.steps(of: ladder) == ladder)
        #expect(HintLevel.none.steps(of: ladder).isEmpty)
        let hints = ExportedHints(level: .all, ladders: ["1.1": ladder, "1.2": []])
        let data = try hints.encoded()
        let text = String(decoding: data, as: UTF8.self)
        #expect(!ladder.contains { text.contains($0.text) }, "no step's text in the clear")
        let read = try JSONDecoder().decode(ExportedHints.self, from: data)
        #expect(read == hints && read.ladder(for: "1.1") == ladder)
        #expect(read.exerciseIDs == ["1.1"], "an exercise with no step is left out")
    }
}

import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

@Suite("Classroom: workbook.lock")
struct ClassroomLockTests {
    /// A small student copy: every kind of protected file, and some that are not protected.
    func studentCopy() throws -> URL {
        let root = try ClassroomFixture.scratch("lock")
        let files = [
            "Package.swift": "// package",
            "Sources/workbook/main.swift": "print(1)",
            "Sources/WorkbookKit/Checker.swift": "struct Checker {}",
            "Tests/Chapter1LatchTests/Exercise1_1Tests.swift": "// 1.1's tests",
            "Tests/Chapter3SemaphoresTests/Exercise3_1Tests.swift": "// 3.1's tests",
            "Tests/WorkbookTestSupport/Support.swift": "// shared",
            "Tests/NearMisses/Chapter2Groups/2.1-late-leave.swift": "// near miss",
            "Exercises/Chapter1Latch/chapter.json": "{}",
            "Exercises/Chapter3Semaphores/chapter.json": "{}",
            ".github/workflows/classroom.yml": "name: Autograding Tests",
            // Not protected: the learner's files, the lessons, build output, Finder's litter.
            "Exercises/Chapter1Latch/CountdownBlock.swift": "// learner",
            "Exercises/Chapter1Latch/README.md": "# lesson",
            ".github/workflows/other.yml": "name: Other",
            ".build/debug/thing": "binary",
            "Sources/WorkbookKit/.build-check/x.o": "object",
            "Tests/.DS_Store": "finder",
            "README.md": "# readme",
        ]
        for (path, text) in files { try ClassroomFixture.write(text, to: path, under: root) }
        return root
    }

    @Test("protected: Package.swift, Sources/, Tests/, every chapter.json, the workflow; not .build*, .DS_Store or the learner's files")
    func protectedList() throws {
        let root = try studentCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try ProtectedPaths.list(under: root) == [
            ".github/workflows/classroom.yml",
            "Exercises/Chapter1Latch/chapter.json",
            "Exercises/Chapter3Semaphores/chapter.json",
            "Package.swift",
            "Sources/WorkbookKit/Checker.swift",
            "Sources/workbook/main.swift",
            "Tests/Chapter1LatchTests/Exercise1_1Tests.swift",
            "Tests/Chapter3SemaphoresTests/Exercise3_1Tests.swift",
            "Tests/NearMisses/Chapter2Groups/2.1-late-leave.swift",
            "Tests/WorkbookTestSupport/Support.swift",
        ])
    }

    @Test("the lock holds each protected file's SHA-256 and the assignment, and reads back as written")
    func makeWriteRead() throws {
        let root = try studentCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        let assignment = try ClassroomAssignment(workbook: Fixture.workbook, chapters: [1, 3], points: ["1.1": 5])
        let lock = try WorkbookLock.make(root: root, assignment: assignment)
        #expect(lock.version == WorkbookLock.currentVersion)
        #expect(lock.files.count == 10)
        #expect(lock.files["Package.swift"] == SHA256.hex(Data("// package".utf8)))
        try lock.write(root: root)
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("workbook.lock").path))
        #expect(try WorkbookLock.read(root: root) == lock)
        let text = try String(contentsOf: root.appendingPathComponent(WorkbookLock.fileName), encoding: .utf8)
        #expect(text.contains(#""Tests/Chapter1LatchTests/Exercise1_1Tests.swift" : ""#), "paths unescaped, sorted keys")
        #expect(try lock.verify(root: root).isEmpty, "the lock itself is not among the protected files")
    }

    @Test("verify names changed, deleted and added protected files; the learner's own edits are fine")
    func violations() throws {
        let root = try studentCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        let lock = try WorkbookLock.make(root: root, assignment: try ClassroomAssignment(workbook: Fixture.workbook))
        try ClassroomFixture.write("// solved", to: "Exercises/Chapter1Latch/CountdownBlock.swift", under: root)
        try ClassroomFixture.write("other", to: "Tests/Chapter1LatchTests/.DS_Store", under: root)
        #expect(try lock.verify(root: root).isEmpty)

        try ClassroomFixture.write("// always passes", to: "Tests/Chapter1LatchTests/Exercise1_1Tests.swift", under: root)
        try FileManager.default.removeItem(at: root.appendingPathComponent("Exercises/Chapter3Semaphores/chapter.json"))
        try ClassroomFixture.write("// extra", to: "Tests/Chapter3SemaphoresTests/Extra.swift", under: root)
        #expect(try lock.verify(root: root) == [
            LockViolation(kind: .missing, path: "Exercises/Chapter3Semaphores/chapter.json"),
            LockViolation(kind: .changed, path: "Tests/Chapter1LatchTests/Exercise1_1Tests.swift"),
            LockViolation(kind: .added, path: "Tests/Chapter3SemaphoresTests/Extra.swift"),
        ])
    }

    @Test("a protected file turned into a symbolic link to the same contents is a change")
    func symbolicLink() throws {
        let root = try studentCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        let lock = try WorkbookLock.make(root: root, assignment: try ClassroomAssignment(workbook: Fixture.workbook))
        let test = root.appendingPathComponent("Tests/Chapter1LatchTests/Exercise1_1Tests.swift")
        let mine = root.appendingPathComponent("Exercises/Chapter1Latch/Mine.swift")
        try FileManager.default.moveItem(at: test, to: mine)
        try FileManager.default.createSymbolicLink(at: test, withDestinationURL: mine)
        #expect(try lock.verify(root: root) == [LockViolation(kind: .changed, path: "Tests/Chapter1LatchTests/Exercise1_1Tests.swift")])
    }

    @Test("a chapter's own tests, near misses and manifest concern it alone; anything else every chapter")
    func affectedChapters() {
        let workbook = Fixture.workbook
        let all = workbook.chapters.map(\.number)
        func chapters(_ path: String) -> [Int] {
            LockViolation(kind: .changed, path: path).affectedChapters(in: workbook).map(\.number)
        }
        #expect(chapters("Tests/Chapter1LatchTests/Exercise1_1Tests.swift") == [1])
        #expect(chapters("Tests/Chapter3SemaphoresTests/Sub/Deep.swift") == [3])
        #expect(chapters("Tests/NearMisses/Chapter2Groups/2.1-x.swift") == [2])
        #expect(chapters("Exercises/Chapter5BuggyCounter/chapter.json") == [5])
        for path in ["Package.swift", "Sources/WorkbookKit/Grader.swift", "Tests/WorkbookTestSupport/Gates.swift",
                     ".github/workflows/classroom.yml", "Tests/HelperTests/X.swift", "Tests/Loose.swift",
                     "Tests/NearMisses/Loose.swift", "Exercises/Chapter9Unknown/chapter.json"] {
            #expect(chapters(path) == all, "\(path)")
        }
    }

    @Test("no lock, a broken one, or one of another format: each said plainly")
    func unreadable() throws {
        let root = try ClassroomFixture.scratch("lock-read")
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = try #require(throws: ClassroomError.self) { try WorkbookLock.read(root: root) }
        #expect(missing.description.contains("There is no workbook.lock"))
        #expect(!missing.isBadInput)

        try ClassroomFixture.write("{ not json", to: WorkbookLock.fileName, under: root)
        let broken = try #require(throws: ClassroomError.self) { try WorkbookLock.read(root: root) }
        #expect(broken.description.contains("cannot be read"))

        var future = WorkbookLock(assignment: try ClassroomAssignment(workbook: Fixture.workbook), files: [:])
        future.version = WorkbookLock.currentVersion + 1
        try future.write(root: root)
        let other = try #require(throws: ClassroomError.self) { try WorkbookLock.read(root: root) }
        #expect(other.description.contains("format \(WorkbookLock.currentVersion + 1)"))
    }

    @Test("the real workbook's lock covers its package, tests, tool and every manifest, and verifies clean")
    func realWorkbook() throws {
        let root = Fixture.packageRoot
        let lock = try WorkbookLock.make(root: root, assignment: try ClassroomAssignment(workbook: Fixture.workbook))
        #expect(lock.files["Package.swift"] != nil)
        for chapter in Fixture.workbook.chapters {
            #expect(lock.files["Exercises/\(chapter.name)/chapter.json"] != nil)
            #expect(lock.files.keys.contains { $0.hasPrefix("Tests/\(chapter.testModule)/") })
            for exercise in chapter.exercises {
                #expect(lock.files["Exercises/\(chapter.name)/\(exercise.file)"] == nil, "the learner's file is theirs")
            }
        }
        #expect(lock.files["Sources/WorkbookClassroom/WorkbookLock.swift"] != nil)
        #expect(!lock.files.keys.contains { $0.hasPrefix("Solutions/") || $0.contains("/.build") })
        #expect(try lock.verify(root: root).isEmpty)
    }
}

import Foundation
import Testing
@testable import WorkbookKit

@Suite("workbook export: the student copy")
struct StudentCopyTests {
    @Test("no solutions, near misses or engine tests; hints, workflow and a lock that verifies clean; one commit; never overwrites")
    func export() throws {
        let workbook = Fixture.workbook
        let assignment = try ClassroomAssignment(workbook: workbook, chapterList: "1,3", pointsFile: Data(#"{"3.2": 25}"#.utf8))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wb-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try StudentCopy(workbook: workbook, assignment: assignment).write(to: folder)
        let fm = FileManager.default
        func exists(_ path: String) -> Bool { fm.fileExists(atPath: folder.appendingPathComponent(path).path) }

        for (chapter, exercise) in workbook.allExercises {
            #expect(exists(Layout.exerciseFile(chapter, exercise)), "\(exercise.id): starter missing")
            #expect(!exists(Layout.exerciseFile(chapter, exercise, in: .solutions)), "\(exercise.id): the solution went along")
        }
        for chapter in workbook.chapters {
            #expect(exists(Layout.hints(chapter)), "\(chapter.name): hints missing")
            #expect(!exists(Layout.nearMissFolder(chapter)), "\(chapter.name): near misses (with correct alternatives) went along")
            #expect(exists(Layout.testFolder(chapter)))
        }
        #expect(!exists("Tests/WorkbookKitTests") && !exists(".ci") && !exists(".github/workflows/ci.yml"))
        #expect(exists(ClassroomWorkflow.path) && exists(Layout.packageManifest))

        let lock = try WorkbookLock.read(root: folder)
        #expect(lock.assignment == assignment)
        #expect(lock.assignment.points["3.2"] == 25 && lock.assignment.points["1.1"] == 10 && lock.assignment.points["2.1"] == nil)
        #expect(try lock.verify(root: folder).isEmpty)
        #expect(lock.files.keys.contains(ClassroomWorkflow.path))

        if written.committed {
            let status = try ChildProcess.run("git", ["-C", folder.path, "status", "--porcelain"], timeLimit: 30)
            #expect(status.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "everything committed")
        }
        #expect(throws: ClassroomError.self, "a folder with files in it is never written over") {
            try StudentCopy(workbook: workbook, assignment: assignment).write(to: folder)
        }
        #expect(throws: ClassroomError.self, "never inside a folder it copies") {
            try StudentCopy(workbook: workbook, assignment: assignment).write(to: workbook.root.appendingPathComponent("Tests/export-test"))
        }
        #expect(!FileManager.default.fileExists(atPath: workbook.root.appendingPathComponent("Tests/export-test").path))
    }
}

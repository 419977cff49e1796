import Foundation
import Testing
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

@Suite("The watch loop's decisions")
struct WatchRoundTests {
    let workbook = Fixture.workbook

    func path(_ id: String) -> String {
        let item = workbook.allExercises.first { $0.exercise.id == id }!
        return workbook.exerciseFile(item.chapter, item.exercise).standardizedFileURL.path
    }

    @Test("a saved exercise: it in full, its whole chapter checked")
    func savedExercise() throws {
        let round = try #require(WatchRound(changedPaths: [path("4.2")], in: workbook))
        #expect(round.saved == ["4.2"])
        #expect(round.check == ["4.1", "4.2", "4.3", "4.4", "4.5"], "4.2 extends 4.1's type: the chapter is checked whole")
        #expect(round.items(in: workbook).map(\.exercise.id) == round.check)
    }

    @Test("two chapters saved at once: both chapters, in the workbook's order")
    func twoChapters() throws {
        let round = try #require(WatchRound(changedPaths: [path("5.1"), path("1.3")], in: workbook))
        #expect(Set(round.saved) == ["1.3", "5.1"])
        #expect(round.check == ["1.1", "1.2", "1.3", "5.1", "5.2", "5.3"])
    }

    @Test("files that are no exercise's (a lesson, a backup, something elsewhere): no round")
    func notAnExercise() {
        let lesson = workbook.layout.url("Exercises/Chapter1Latch/README.md").standardizedFileURL.path
        #expect(WatchRound(changedPaths: [lesson, "/tmp/elsewhere.swift", path("1.1") + ".bak"], in: workbook) == nil)
        #expect(WatchRound(changedPaths: [], in: workbook) == nil)
    }
}

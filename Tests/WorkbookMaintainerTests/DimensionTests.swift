import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
@testable import WorkbookMaintainer
import WorkbookEngineTestSupport

@Suite("Dimensions each suite explores")
struct DimensionTests {
    @Test("every exercise declares all ten dimensions, and every test and corpus entry it names exists")
    func workbookDeclaresEveryDimension() throws {
        let declared = Fixture.workbook.dimensions()
        #expect(declared.count == Fixture.workbook.allExercises.count)
        for item in declared {
            #expect(item.missing.isEmpty, "\(item.exercise.id) does not declare \(item.missing.map(\.rawValue))")
        }
        let problems = Fixture.workbook.dimensionProblems(declared)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("a cell is tests with corpus entries and a note, or a reason it does not apply; JSON both ways")
    func coverageDecodes() throws {
        let json = #"{"queues": {"tests": ["a"], "corpus": ["1.1-x"], "note": "n"}, "deadlines": {"notApplicable": "no deadline"}}"#
        let cells = try JSONDecoder().decode([SuiteDimension: DimensionCoverage].self, from: Data(json.utf8))
        #expect(cells[.queues] == .tested(tests: ["a"], corpus: ["1.1-x"], note: "n"))
        #expect(cells[.deadlines] == .notApplicable(because: "no deadline"))
        let again = try JSONDecoder().decode([SuiteDimension: DimensionCoverage].self, from: JSONEncoder().encode(cells))
        #expect(again == cells)
        #expect(throws: DecodingError.self, "a cell with neither tests nor a reason") {
            try JSONDecoder().decode([SuiteDimension: DimensionCoverage].self, from: Data(#"{"overlap": {"note": "?"}}"#.utf8))
        }
    }

    @Test("the problems name a missing dimension, a test the suite lacks, an entry the corpus lacks, a cell with no test")
    func problemsAreNamed() throws {
        let item = Fixture.items("1.1")[0]
        let (chapter, exercise) = (item.chapter, item.exercise)
        var cells = Dictionary(uniqueKeysWithValues: SuiteDimension.allCases.map { ($0, DimensionCoverage.notApplicable(because: "x")) })
        cells[.queues] = nil
        cells[.overlap] = .tested(tests: ["noSuchTest"], corpus: ["1.1-no-such-entry"], note: nil)
        cells[.lifetime] = .tested(tests: [], corpus: [], note: nil)
        cells[.reentrance] = .notApplicable(because: " ")
        let problems = Fixture.workbook.dimensionProblems([ExerciseDimensions(chapter: chapter, exercise: exercise, cells: cells)])
        #expect(problems == [
            "1.1 declares nothing for queues",
            "1.1 overlap: Tests/Chapter1LatchTests/Exercise1_1Tests.swift has no @Test func noSuchTest",
            "1.1 overlap: no corpus entry 1.1-no-such-entry for 1.1",
            "1.1 lifetime: no test named",
            "1.1 reentrance: notApplicable without a reason",
        ])
    }

    @Test("a test is found by its @Test attribute on the lines above its func, not by a helper of the same name")
    func testsAreFoundByAttribute() {
        let source = "@Test(\"x\", arguments: [1])\n@available(macOS 15, *)\nfunc covered(_ n: Int) {}\nfunc helper() {}"
        #expect(Workbook.declaresTest("covered", in: source))
        #expect(!Workbook.declaresTest("helper", in: source))
        #expect(!Workbook.declaresTest("cover", in: source))
    }

    @Test("the table has a row per exercise and a column per dimension, and fits its width")
    func tableRenders() throws {
        let items = Fixture.items("1.1", "1.2")
        let declared = [
            ExerciseDimensions(chapter: items[0].chapter, exercise: items[0].exercise,
                               cells: [.queues: .notApplicable(because: "no queue"), .overlap: .tested(tests: ["t"], corpus: [], note: nil)]),
            ExerciseDimensions(chapter: items[1].chapter, exercise: items[1].exercise, cells: [:]),
        ]
        let text = DimensionTable.render(declared, problems: ["p"], why: true, style: Style(color: false), width: 72)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains { $0.hasPrefix("1.1") && $0.contains("–  ✘  ✔") })
        #expect(lines.contains { $0.hasPrefix("1.2") && $0.filter { $0 == "✘" }.count == 10 })
        #expect(text.contains("3. overlap: tests t"))
        #expect(text.contains("1. queues: does not apply: no queue"))
        #expect(text.contains("1 problem in the declarations:"))
        #expect(lines.allSatisfy { $0.count <= 72 })
    }
}

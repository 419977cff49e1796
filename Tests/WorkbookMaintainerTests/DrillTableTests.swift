import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
@testable import WorkbookMaintainer
import WorkbookEngineTestSupport

@Suite("The drills as data")
struct DrillTableTests {
    @Test("every swap names a fixture that exists and an exercise of the workbook, and expects a verdict check can give")
    func swapsResolve() {
        let fixtures = Fixture.packageRoot.appendingPathComponent(Layout.drillFixtures)
        for swap in FaultDrill.swaps {
            #expect(Fixture.workbook.allExercises.contains { $0.exercise.id == swap.exercise }, "\(swap.exercise) is not in the workbook")
            if let fixture = swap.fixture {
                #expect(FileManager.default.fileExists(atPath: fixtures.appendingPathComponent(fixture).path), "no fixture \(fixture)")
            }
            #expect(swap.expected == "pass" || FailureKind(rawValue: swap.expected) != nil, "\(swap.expected) is no verdict")
        }
        #expect(Set(FaultDrill.swaps.map(\.exercise)).count == FaultDrill.swaps.count, "one fault per exercise")
    }

    @Test("every classroom row names an exercise of the workbook, fixtures that exist, and leaves a chapter out")
    func classroomRowsResolve() {
        let (items, missing) = ClassroomDrill.resolve(ClassroomDrill.rows, in: Fixture.workbook)
        #expect(missing.isEmpty, "\(missing.map(\.actual))")
        let fixtures = Fixture.packageRoot.appendingPathComponent(Layout.classroomFixtures)
        for item in items {
            for case let .fixture(name) in item.row.changes {
                #expect(FileManager.default.fileExists(atPath: fixtures.appendingPathComponent(name).path), "no fixture \(name)")
            }
        }
        let assigned = ClassroomDrill.assigned(items)
        #expect(!assigned.isEmpty && assigned.count < Fixture.workbook.chapters.count, "chapters \(assigned): none left out")
    }

    @Test("a classroom row whose exercise the workbook lacks is a failed outcome that names it; the others still run")
    func classroomMissingExercise() {
        let rows = [ClassroomDrill.Row(student: .ada, exercise: "9.9", changes: [.solution], grade: .pass),
                    ClassroomDrill.Row(student: .bo, exercise: "1.1", changes: [.solution], grade: .pass)]
        let (items, missing) = ClassroomDrill.resolve(rows, in: Fixture.workbook)
        #expect(items.map(\.exercise.id) == ["1.1"])
        #expect(missing.count == 1)
        #expect(missing.first?.held == false && missing.first?.skipped == false)
        #expect(missing.first?.actual == "no exercise 9.9 in this workbook")
        #expect(missing.first?.fault.contains("ada") == true)
    }
}

import Foundation
import Testing
@testable import WorkbookCore
import WorkbookEngineTestSupport

@Suite("Classroom: assignment and points")
struct ClassroomAssignmentTests {
    let workbook = Fixture.workbook

    func ids(ofChapters numbers: Int...) -> [String] {
        workbook.chapters.filter { numbers.contains($0.number) }.flatMap(\.exercises).map(\.id)
    }

    @Test("by default every exercise of every chapter, 10 points each")
    func defaults() throws {
        let assignment = try ClassroomAssignment(workbook: workbook)
        #expect(assignment.chapters == workbook.chapters.map(\.number))
        #expect(assignment.points.count == workbook.allExercises.count)
        #expect(assignment.points.values.allSatisfy { $0 == 10 })
        #expect(assignment.maxScore == 10 * workbook.allExercises.count)
    }

    @Test("\"3, 1\" assigns chapters 1 and 3 only, in order; a points file overrides some exercises")
    func chaptersAndPoints() throws {
        let assignment = try ClassroomAssignment(
            workbook: workbook, chapterList: "3, 1", pointsFile: try ClassroomFixture.data("points.json"))
        #expect(assignment.chapters == [1, 3])
        #expect(assignment.points.keys.sorted() == ids(ofChapters: 1, 3).sorted())
        #expect(assignment.points["1.1"] == 5)
        #expect(assignment.points["3.2"] == 20)
        #expect(assignment.points["1.2"] == ClassroomAssignment.defaultPoints)
        let listed = assignment.exercises(in: workbook)
        #expect(listed.map(\.exercise.id) == ids(ofChapters: 1, 3), "in the workbook's order")
        #expect(listed.first?.points == 5)
        #expect(assignment.maxScore == assignment.points.values.reduce(0, +))
    }

    @Test("chapters by any name the workbook knows; duplicates once")
    func chapterNames() throws {
        #expect(try ClassroomAssignment.parseChapters("Chapter2,chapter4serialqueues, 2", in: workbook) == [2, 4, 2])
        let assignment = try ClassroomAssignment(workbook: workbook, chapters: [2, 4, 2])
        #expect(assignment.chapters == [2, 4])
    }

    @Test("a chapter list that names nothing, or no such chapter, is bad input")
    func badChapters() {
        for list in ["", "1,,3", " , ", "1,12", "latches"] {
            #expect { try ClassroomAssignment.parseChapters(list, in: workbook) } throws: { error in
                (error as? ClassroomError)?.isBadInput == true
            }
        }
        #expect { try ClassroomAssignment(workbook: workbook, chapters: [1, 12]) } throws: { error in
            let error = error as? ClassroomError
            return error?.isBadInput == true && error?.description.contains("no chapter 12") == true
        }
        #expect { try ClassroomAssignment(workbook: workbook, chapters: []) } throws: { error in
            (error as? ClassroomError)?.isBadInput == true
        }
    }

    @Test("points that are not whole numbers are each named with how they were written")
    func notWholeNumbers() throws {
        let data = try ClassroomFixture.data("points-not-whole-numbers.json")
        let error = try #require(throws: ClassroomError.self) { try ClassroomAssignment.parsePoints(data) }
        #expect(error.isBadInput)
        for expected in ["1.1 is worth 2.5", "1.2 is worth \"ten\"", "1.3 is worth true", "3.1 is worth null", "3.2 is worth a list or an object"] {
            #expect(error.description.contains(expected), "\(expected) in: \(error.description)")
        }
        #expect(!error.description.contains("3.3"), "7 is a fine number of points")
    }

    @Test("points for no such exercise, an unassigned one, or zero or less are each named")
    func wrongExercises() throws {
        let data = try ClassroomFixture.data("points-wrong-exercises.json")
        let error = try #require(throws: ClassroomError.self) {
            try ClassroomAssignment(workbook: workbook, chapterList: "1,3", pointsFile: data)
        }
        #expect(error.isBadInput)
        #expect(error.description.contains("1.1 is worth 0"))
        #expect(error.description.contains("2.1 is not in the assigned chapters (1, 3)"))
        #expect(error.description.contains("there is no exercise 9.9"))
        #expect(error.description.contains("3.1 is worth -4"))
    }

    @Test("a points file that is not a JSON object is bad input with an example")
    func notAnObject() {
        for text in ["[1, 2]", "{\"1.1\": ", "10", ""] {
            #expect { try ClassroomAssignment.parsePoints(Data(text.utf8)) } throws: { error in
                let error = error as? ClassroomError
                return error?.isBadInput == true && error?.description.contains(#"{"1.1": 5, "3.2": 20}"#) == true
            }
        }
    }

    @Test("it survives a JSON round trip")
    func codable() throws {
        let assignment = try ClassroomAssignment(workbook: workbook, chapters: [5], points: ["5.2": 15])
        let decoded = try JSONDecoder().decode(ClassroomAssignment.self, from: JSONEncoder().encode(assignment))
        #expect(decoded == assignment)
    }
}

import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

@Suite("Classroom: grading a check with the lock's violations")
struct ClassroomGradeTests {
    let workbook = Fixture.workbook

    func passed(_ id: String, runs: Int = 1) -> CheckReport.Result {
        let named = Fixture.items(id)[0]
        let (chapter, exercise) = (named.chapter, named.exercise)
        var result = CheckReport.Result(chapter: chapter, exercise: exercise)
        result.runs = (0..<runs).map { _ in
            ExerciseVerdict(chapter: chapter, exercise: exercise, findings: [], testsRun: 2, testsFailed: 0)
        }
        return result
    }

    func failed(_ id: String, _ findings: [Finding], passingRuns: Int = 0) -> CheckReport.Result {
        var result = passed(id, runs: passingRuns)
        result.runs.append(ExerciseVerdict(chapter: result.chapter, exercise: result.exercise, findings: findings,
                                           testsRun: 2, testsFailed: 1))
        return result
    }

    func notCompiling(_ id: String) -> CheckReport.Result {
        var result = passed(id, runs: 0)
        result.compileErrors = [CompilerError(file: "/w/Exercises/\(result.chapter.name)/\(result.exercise.file)",
                                              line: 7, column: 3, message: "cannot find 'queue' in scope")]
        return result
    }

    func report(_ results: CheckReport.Result...) -> CheckReport {
        CheckReport(results: results, runs: 1, buildSeconds: 0, seconds: 0)
    }

    func item(_ grade: ClassroomGrade, _ id: String) throws -> ClassroomGrade.Item {
        try #require(grade.items.first { $0.exercise == id })
    }

    @Test("a pass earns the exercise's points; a failure none, its kind and first finding the reason")
    func passAndFail() throws {
        let assignment = try ClassroomAssignment(workbook: workbook, chapters: [1], points: ["1.1": 5, "1.2": 20])
        let race = Finding(kind: .race, message: "Two threads changed `pending` at the same time.",
                           file: "Exercises/Chapter1Latch/AnimationLatch.swift", line: 20)
        let wrong = Finding(kind: .wrong, message: "Expected 3 calls, got 2.")
        let grade = ClassroomGrade(report: report(passed("1.1"), failed("1.2", [wrong, race]), notCompiling("1.3")),
                                   assignment: assignment, violations: [], workbook: workbook)

        #expect(grade.items.map(\.exercise) == ["1.1", "1.2", "1.3"])
        let first = try item(grade, "1.1")
        #expect(first.points == 5 && first.maxPoints == 5 && first.verdict == .pass && first.reason == "Passed.")
        let second = try item(grade, "1.2")
        #expect(second.points == 0 && second.maxPoints == 20)
        #expect(second.verdict == .failed(.race), "a race outranks a wrong result")
        #expect(second.reason == "Data race: Two threads changed `pending` at the same time.")
        let third = try item(grade, "1.3")
        #expect(third.verdict == .failed(.compile))
        #expect(third.reason.hasPrefix("Does not compile: cannot find 'queue' in scope"))
        #expect(grade.total == 5)
        #expect(grade.maxTotal == 35)
    }

    @Test("the reason is chosen by kind, then by the order the suite declares its tests — the same whichever test failed first in time; a race's names no thread")
    func deterministicReason() throws {
        let assignment = try ClassroomAssignment(workbook: workbook, chapters: [1])
        func wrong(_ message: String, declaredAt line: Int) -> Finding {
            var finding = Finding(kind: .wrong, message: message, file: "Tests/Chapter1LatchTests/Exercise1_1Tests.swift", line: line + 3)
            finding.testDeclared = SourcePlace(testID: "Chapter1LatchTests.Exercise1_1Tests/t\(line)()/Exercise1_1Tests.swift:\(line):6")
            return finding
        }
        let first = wrong("whenZero ran twice. Read the lesson.", declaredAt: 7), later = wrong("A call blocked.", declaredAt: 40)
        func race(_ threads: (String, String)) -> Finding {
            var finding = Finding(kind: .race, message: "Two threads changed `toComplete` … (write, thread \(threads.0)) and … (write, thread \(threads.1)). Protect them.",
                                  file: "Exercises/Chapter1Latch/CountdownBlock.swift", line: 15)
            finding.summary = Says.raceSummary(writes: 2, of: 2, variable: "toComplete", lines: [15, 15])
            return finding
        }
        let reasons = [[later, first], [first, later], [later, first, later]].map { findings in
            ClassroomGrade(report: report(failed("1.1", findings)), assignment: assignment, violations: [], workbook: workbook).items[0].reason
        }
        #expect(Set(reasons) == ["Wrong result: whenZero ran twice."], "\(reasons)")
        let races = [("T5", "T7"), ("T154", "T156")].map { threads in
            ClassroomGrade(report: report(failed("1.1", [later, race(threads)])), assignment: assignment, violations: [], workbook: workbook).items[0].reason
        }
        #expect(Set(races) == ["Data race: Two threads changed `toComplete`, and TSan saw nothing ordering the two accesses (line 15)."], "\(races)")
    }

    @Test("over several runs: every run must pass, and a failure says how many runs failed")
    func severalRuns() throws {
        let assignment = try ClassroomAssignment(workbook: workbook, chapters: [5])
        let hang = Finding(kind: .hang, message: "It never finished.")
        let grade = ClassroomGrade(report: report(passed("5.1", runs: 3), failed("5.2", [hang], passingRuns: 2)),
                                   assignment: assignment, violations: [], workbook: workbook)
        #expect(try item(grade, "5.1").reason == "Passed all 3 runs.")
        let flaky = try item(grade, "5.2")
        #expect(flaky.points == 0)
        #expect(flaky.reason == "Never finished (failed 1 of 3 runs): It never finished.")
    }

    @Test("in a student's own check, a changed test file leaves its chapter ungraded, naming the file and what grading will do; other chapters are graded as usual")
    func tamperedChapter() throws {
        let assignment = try ClassroomAssignment(workbook: workbook, chapters: [1, 3])
        let violations = [LockViolation(kind: .changed, path: "Tests/Chapter3SemaphoresTests/Exercise3_1Tests.swift"),
                          LockViolation(kind: .added, path: "Tests/NearMisses/Chapter3Semaphores/new.swift")]
        let grade = ClassroomGrade(report: report(passed("1.1"), passed("3.1"), passed("3.2"), passed("3.3")),
                                   assignment: assignment, violations: violations, workbook: workbook)
        #expect(try item(grade, "1.1").verdict == .pass)
        for id in ["3.1", "3.2", "3.3"] {
            let tampered = try item(grade, id)
            #expect(tampered.verdict == .tampered)
            #expect(tampered.points == 0)
            #expect(tampered.reason == "Chapter 3 is not graded here because Tests/Chapter3SemaphoresTests/Exercise3_1Tests.swift was changed, "
                + "Tests/NearMisses/Chapter3Semaphores/new.swift was added (see workbook.lock). Grading puts protected files back "
                + "before it grades, so the change will not count there; undo it to see here the points you will get.")
        }
        #expect(grade.violations == violations)
        #expect(grade.total == 10)
    }

    @Test("a changed Package.swift or a deleted workflow grades every chapter 0")
    func tamperedEverything() throws {
        let assignment = try ClassroomAssignment(workbook: workbook, chapters: [1, 2])
        for violation in [LockViolation(kind: .changed, path: "Package.swift"),
                          LockViolation(kind: .missing, path: ClassroomWorkflow.path)] {
            let grade = ClassroomGrade(report: report(passed("1.1"), passed("2.1")),
                                       assignment: assignment, violations: [violation], workbook: workbook)
            #expect(grade.items.allSatisfy { $0.verdict == .tampered && $0.points == 0 })
            #expect(grade.items.allSatisfy { $0.reason.contains(violation.description) })
            #expect(grade.total == 0)
        }
    }

    @Test("an assigned exercise the check did not run is not graded; one not assigned is left out")
    func notGraded() throws {
        let assignment = try ClassroomAssignment(workbook: workbook, chapters: [1])
        let grade = ClassroomGrade(report: report(passed("1.1"), passed("2.1")),
                                   assignment: assignment, violations: [], workbook: workbook)
        #expect(grade.items.map(\.exercise) == ["1.1", "1.2", "1.3"])
        #expect(try item(grade, "1.2").verdict == .notGraded)
        #expect(try item(grade, "1.2").points == 0)
    }

    @Test("the grade encodes verdicts by their codes, and decodes back")
    func codable() throws {
        let assignment = try ClassroomAssignment(workbook: workbook, chapters: [1])
        let grade = ClassroomGrade(report: report(passed("1.1"), failed("1.2", [Finding(kind: .crash, message: "Trap.")])),
                                   assignment: assignment, violations: [LockViolation(kind: .added, path: "Tests/X.swift")],
                                   workbook: workbook)
        let data = try JSONEncoder().encode(grade)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""verdict":"tampered""#))
        #expect(try JSONDecoder().decode(ClassroomGrade.self, from: data) == grade)
        for verdict in ClassroomVerdict.allCases {
            #expect(ClassroomVerdict(code: verdict.code) == verdict)
        }
        #expect(ClassroomVerdict(code: "passed") == nil)
        #expect(Set(ClassroomVerdict.allCases.map(\.code)).count == 8)
    }
}

import Foundation

/// Exercism's `results.json`, version 3, with the workbook's own fields beside the standard ones.
///
/// Standard: `version`, `status` (pass / fail / error), `message` (only when the status is
/// `error`), and per test `name`, `status`, `message`, `output` (only the learner's own output, which
/// the workbook does not capture, so never set), `task_id` (a number). Ours: `chapter`, `exercise`,
/// `kind`, `location`, `detail`, `runs`, `failed_runs`, `notes`, `warnings`, `frozen_files_changed`.
package struct ExercismResults: Codable, Sendable, Equatable {
    var version = 3
    package var status: Status
    var message: String?
    var tests: [Test]
    /// Files the learner should not have edited that changed: every verdict is then suspect.
    var frozenFilesChanged: [String]
    /// With `check --classroom`: the points of each assigned exercise and the protected files changed.
    package var classroom: ClassroomGrade?

    package enum Status: String, Codable, Sendable {
        case pass, fail, error
    }

    struct Test: Codable, Sendable, Equatable {
        var name: String
        var status: Status
        var message: String?
        /// The exercise's place in the workbook, from 1 (Exercism's tasks are numbered).
        var taskID: Int
        var chapter: Int
        var exercise: String
        var kind: FailureKind?
        /// `file:line` in the learner's file.
        var location: String?
        /// The raw report behind the message (a TSan report, a backtrace, compiler output), cut at 500 characters.
        var detail: String?
        var runs: Int
        var failedRuns: Int
        var notes: [String]?
        var warnings: [Warning]
        /// With `check --classroom`: the points awarded and the most there were.
        var points: Int?
        var maxPoints: Int?

        enum CodingKeys: String, CodingKey {
            case name, status, message, chapter, exercise, kind, location, detail, runs, notes, warnings, points
            case taskID = "task_id"
            case failedRuns = "failed_runs"
            case maxPoints = "max_points"
        }
    }

    struct Warning: Codable, Sendable, Equatable {
        var rule: String
        var line: Int
        var message: String
    }

    enum CodingKeys: String, CodingKey {
        case version, status, message, tests, classroom
        case frozenFilesChanged = "frozen_files_changed"
    }

    /// These results with `grade`'s points beside each test.
    package func adding(_ grade: ClassroomGrade) -> ExercismResults {
        var copy = self
        copy.classroom = grade
        for index in copy.tests.indices {
            guard let item = grade.items.first(where: { $0.exercise == copy.tests[index].exercise }) else { continue }
            copy.tests[index].points = item.points
            copy.tests[index].maxPoints = item.maxPoints
        }
        return copy
    }

    /// As JSON: pretty, keys sorted.
    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, numbers and arrays of them always encode.
        return (try? encoder.encode(self)) ?? Data()
    }
}

package extension CheckReport {
    /// The report as Exercism's `results.json` v3 (see ``ExercismResults``); `workbook` numbers the tasks.
    func exercismResults(in workbook: Workbook, frozenChanges: [String] = []) -> ExercismResults {
        let order = workbook.allExercises.map(\.exercise.id)
        let tests = results.map { result in
            let first = result.findings.headline
            let status: ExercismResults.Status = result.passed ? .pass : (result.compileErrors != nil ? .error : .fail)
            return ExercismResults.Test(
                name: "\(result.exercise.id) \(result.exercise.title)",
                status: status,
                message: first?.message,
                taskID: (order.firstIndex(of: result.exercise.id) ?? order.count) + 1,
                chapter: result.chapter.number,
                exercise: result.exercise.id,
                kind: result.kind,
                location: first?.location,
                detail: first?.detail.flatMap { $0.isEmpty ? nil : String($0.prefix(500)) },
                runs: result.runs.count,
                failedRuns: result.runs.filter { !$0.passed }.count,
                notes: result.notes.isEmpty ? nil : result.notes,
                warnings: result.warnings.map { .init(rule: $0.rule, line: $0.line, message: $0.message) })
        }
        // `error` when nothing could run at all: every exercise checked is in a chapter that does not compile.
        let nothingRan = !results.isEmpty && results.allSatisfy { $0.compileErrors != nil }
        let status: ExercismResults.Status = passed ? .pass : (nothingRan ? .error : .fail)
        return ExercismResults(
            status: status,
            message: status == .error ? "Nothing could be graded: no chapter checked compiles. \(tests.first?.message ?? "")" : nil,
            tests: tests, frozenFilesChanged: frozenChanges)
    }

    /// ``exercismResults(in:frozenChanges:)`` as JSON.
    func exercismJSON(in workbook: Workbook, frozenChanges: [String] = []) -> Data {
        exercismResults(in: workbook, frozenChanges: frozenChanges).encoded()
    }

    /// JUnit XML: a test suite per chapter, a test case per exercise.
    func junitXML() -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let failures = results.filter { !$0.passed }.count
        xml += #"<testsuites name="Dispatch Workbook" tests="\#(results.count)" failures="\#(failures)" time="\#(String(format: "%.3f", seconds))">"# + "\n"
        let chapters = results.reduce(into: [String]()) { names, result in
            if !names.contains(result.chapter.name) { names.append(result.chapter.name) }
        }
        for name in chapters {
            let mine = results.filter { $0.chapter.name == name }
            xml += #"  <testsuite name="\#(markupEscaped(name))" tests="\#(mine.count)" failures="\#(mine.filter { !$0.passed }.count)">"# + "\n"
            for result in mine {
                let time = result.runs.map(\.seconds).reduce(0, +)
                xml += #"    <testcase classname="\#(markupEscaped(name))" name="\#(markupEscaped("\(result.exercise.id) \(result.exercise.title)"))" time="\#(String(format: "%.3f", time))""#
                if result.passed {
                    xml += "/>\n"
                } else {
                    let first = result.findings.headline
                    let message = first.map { "\($0.kind.label): \($0.message)" } ?? "failed"
                    xml += ">\n"
                    xml += #"      <failure type="\#(result.kind?.rawValue ?? "fail")" message="\#(markupEscaped(message))">"#
                    xml += markupEscaped([first?.location, first?.detail].compactMap { $0 }.joined(separator: "\n"))
                    xml += "</failure>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }
}

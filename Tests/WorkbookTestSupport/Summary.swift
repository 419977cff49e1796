import Foundation
import Testing
import WorkbookWire

// What a learner reads last after a plain `swift test --filter ChapterN`: one line per exercise
// whose tests ran — passed, or how many of its tests failed and the first failure's sentence (the
// failing test declared first, so that one code always shows the same line). Swift Testing's own
// last lines count tests and issues across the whole run; this says which exercise to open.
// (`workbook check` prints its own verdicts: nothing is printed here under the grader.)

/// Every issue a chapter suite records goes through here (``verify(_:_:sourceLocation:)``,
/// ``recordTimeout(_:sourceLocation:)``, ``recordCrash(_:sourceLocation:)``, ``judgeChild(_:_:ifItCrashed:ifItHung:sourceLocation:)``
/// and the race trait), so that the summary knows which test failed and why.
package func recordIssue(_ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
    ExerciseSummary.shared.failed(comment.rawValue)
    Issue.record(comment, sourceLocation: sourceLocation)
}

/// The tests of each exercise that ran in this process, and those that failed.
final class ExerciseSummary: @unchecked Sendable {
    static let shared = ExerciseSummary()

    private struct Exercise {
        var tests: Set<String> = []
        /// The failed tests, each with the line it is declared at and its first sentence.
        var failed: [String: (line: Int, sentence: String)] = [:]
    }

    private let lock = NSLock()
    private var exercises: [String: Exercise] = [:]
    private var installed = false

    /// The exercise a test belongs to ("4.3" for `Exercise4_3Tests`), and the test's own name.
    private static func place(of test: Test) -> (exercise: String, test: String, line: Int)? {
        guard let suite = test.id.nameComponents.first,
              let match = suite.wholeMatch(of: /Exercise(\d+)_(\d+)Tests/) else { return nil }
        return ("\(match.1).\(match.2)", test.id.nameComponents.dropFirst().joined(separator: "/"), test.sourceLocation.line)
    }

    /// Notes that `test` ran; the first call also arranges for the summary to be printed at exit.
    func ran(_ test: Test) {
        guard ProcessInfo.processInfo.environment[GraderEnvironment.grading] == nil,
              let place = Self.place(of: test) else { return }
        let install = lock.withLock {
            exercises[place.exercise, default: Exercise()].tests.insert(place.test)
            defer { installed = true }
            return !installed
        }
        if install { atexit { ExerciseSummary.shared.print() } }
    }

    /// Notes that the current test failed, saying `message`.
    func failed(_ message: String) {
        guard let test = Test.current, let place = Self.place(of: test) else { return }
        let sentence = Self.firstSentence(of: message)
        lock.withLock {
            exercises[place.exercise, default: Exercise()].tests.insert(place.test)
            if exercises[place.exercise]?.failed[place.test] == nil {
                exercises[place.exercise]?.failed[place.test] = (place.line, sentence)
            }
        }
    }

    /// The message up to the end of its first sentence: whole, never cut inside one.
    static func firstSentence(of message: String) -> String {
        let line = message.split(separator: "\n").first.map(String.init) ?? message
        guard let end = line.firstMatch(of: /[.?!]["”)]*\s+(?=[A-Z`"(])/) else { return line }
        return String(line[..<end.range.lowerBound]) + String(line[end.range].prefix { !$0.isWhitespace })
    }

    /// The lines the summary prints, by exercise: `nil` when no exercise's tests ran.
    func lines() -> [String]? {
        let exercises = lock.withLock { self.exercises }
        guard !exercises.isEmpty else { return nil }
        let order = exercises.keys.sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        return ["", "By exercise:"] + order.map { id in
            let exercise = exercises[id]!
            // The failure a learner must deal with first, as the grader ranks kinds (a race, a crash,
            // a hang, a wrong result), then the test declared first.
            func rank(_ sentence: String) -> Int {
                switch FailureMarker.opening(sentence) {
                case .race: 0
                case .crashed: 1
                case .timedOut: 2
                default: 3
                }
            }
            guard let first = exercise.failed.min(by: { (rank($0.value.sentence), $0.value.line) < (rank($1.value.sentence), $1.value.line) }) else {
                return "✔ \(id)  all \(exercise.tests.count) tests passed"
            }
            return "✘ \(id)  \(exercise.failed.count) of \(exercise.tests.count) tests failed — first: \(first.value.sentence)"
        } + ["Next: `swift run workbook check <exercise>` grades one exercise and says where to look."]
    }

    private func print() {
        guard let lines = lines() else { return }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}

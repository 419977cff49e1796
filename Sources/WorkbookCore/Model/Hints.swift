import Foundation

/// One step of an exercise's hint ladder.
package struct HintStep: Sendable, Equatable {
    /// What kind of step it is, from its heading: "Question", "Direction", "Shape".
    package var name: String
    /// Markdown: paragraphs, and code only in ```swift fences.
    package var text: String

    package init(name: String, text: String) {
        self.name = name
        self.text = text
    }

    /// Whether the step shows code (a ```swift fence): the shape of the fix, close to the answer.
    package var showsCode: Bool { text.contains("```") }
}

/// How much of each hint ladder a teacher hands out with a student copy (`export --hints`).
package enum HintLevel: String, CaseIterable, Sendable, Codable {
    /// Every step, the code of the fix's shape included.
    case all
    /// The steps that show no code: the question and the direction.
    case nudges
    /// No hints at all.
    case none

    /// What `export` gives when the teacher does not choose.
    package static let `default` = HintLevel.nudges

    /// The level a teacher typed (`--hints nudges`); anything else is a bad-input ``ClassroomError``
    /// naming the choices.
    package init(choice text: String) throws {
        guard let level = HintLevel(rawValue: text) else {
            throw ClassroomError.badInput(Says.hintsChoice(text, choices: Self.allCases.map(\.rawValue)))
        }
        self = level
    }

    /// The steps of `ladder` handed out at this level.
    package func steps(of ladder: [HintStep]) -> [HintStep] {
        switch self {
        case .all: ladder
        case .nudges: ladder.filter { !$0.showsCode }
        case .none: []
        }
    }

    /// For `--help` and the student README: what the level gives.
    package var summary: String {
        switch self {
        case .all: "every step, the code of the fix's shape included"
        case .nudges: "the steps without code: a question, then a direction"
        case .none: "no hints"
        }
    }
}

/// A chapter's hints, kept in `Solutions/<Chapter>/hints.md` beside the reference solutions, so
/// that a learner reads them only by asking `workbook hint`:
///
///     ## 1.1 A countdown block
///     ### Question
///     …
///     ### Direction
///     …
///     ### Shape
///     ```swift
///     …
///     ```
///
/// `## <exercise id> <title>` opens an exercise, `### <step>` one step of its ladder; anything
/// before the first exercise (the file's title and introduction) is not a hint.
package enum HintFile {
    /// The file's name in a chapter's folder of `Solutions/`.
    package static let name = "hints.md"

    /// The steps of every exercise in the file's text, by exercise ID.
    package static func parse(_ text: String) -> [String: [HintStep]] {
        var ladders: [String: [HintStep]] = [:]
        var exercise: String?
        var step: (name: String, lines: [String])?
        var inCode = false

        func closeStep() {
            if let exercise, let current = step {
                let text = current.lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
                ladders[exercise, default: []].append(HintStep(name: current.name, text: text))
            }
            step = nil
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") { inCode.toggle() }
            if !inCode, line.hasPrefix("## ") {
                closeStep()
                exercise = line.dropFirst(3).split(separator: " ").first.map(String.init)
                if let exercise { ladders[exercise] = ladders[exercise] ?? [] }
            } else if !inCode, line.hasPrefix("### ") {
                closeStep()
                step = (String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces), [])
            } else if step != nil {
                step?.lines.append(line)
            }
        }
        closeStep()
        return ladders
    }
}

/// The hints a student copy carries (`export --hints`): one file at the copy's root, each step's text
/// in base64 so that opening the file does not show the whole ladder at once. `workbook hint` serves
/// it one step at a time, and the last step only after a check of that exercise has failed.
package struct ExportedHints: Codable, Sendable, Equatable {
    /// The file's name, at the root of a student copy.
    package static let fileName = ".workbook-hints.json"

    /// One step, its text encoded.
    struct Step: Codable, Sendable, Equatable {
        var step: String
        var base64: String
    }

    /// What the teacher chose to hand out.
    package var level: HintLevel
    /// The ladders, by exercise id.
    var exercises: [String: [Step]]

    /// `level`'s steps of each of `ladders` (by exercise id).
    package init(level: HintLevel, ladders: [String: [HintStep]]) {
        self.level = level
        self.exercises = ladders.compactMapValues { ladder in
            let steps = level.steps(of: ladder).map { Step(step: $0.name, base64: Data($0.text.utf8).base64EncodedString()) }
            return steps.isEmpty ? nil : steps
        }
    }

    /// The ladder of an exercise as handed out; empty when it has none.
    package func ladder(for exercise: String) -> [HintStep] {
        (exercises[exercise] ?? []).map { step in
            HintStep(name: step.step, text: Data(base64Encoded: step.base64).map { String(decoding: $0, as: UTF8.self) } ?? "")
        }
    }

    /// The exercises that have hints.
    package var exerciseIDs: [String] { exercises.keys.sorted() }

    /// The file's contents: pretty, with sorted keys.
    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// The hints a student copy at `root` carries; `nil` when there is no such file (the workbook
    /// itself keeps its hints in `Solutions/`) or it cannot be read.
    package static func read(root: URL) -> ExportedHints? {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(fileName).path) else { return nil }
        return try? JSONDecoder().decode(ExportedHints.self, from: data)
    }
}

package extension Workbook {
    /// Where `chapter`'s hints are kept.
    func hintFile(of chapter: Chapter) -> URL {
        layout.url(Layout.hints(chapter))
    }

    /// The hint ladder of `exercise`: from its chapter's `hints.md`, or in a student copy from
    /// ``ExportedHints``; empty when this copy of the workbook has none for it.
    func hints(for exercise: Exercise, in chapter: Chapter) -> [HintStep] {
        if let text = try? String(contentsOf: hintFile(of: chapter), encoding: .utf8) {
            return HintFile.parse(text)[exercise.id] ?? []
        }
        return exportedHints?.ladder(for: exercise.id) ?? []
    }

    /// The hints handed out with this student copy; `nil` in the workbook itself.
    var exportedHints: ExportedHints? { ExportedHints.read(root: root) }

    /// How many hint steps an exercise has in this copy, fewest to most (a student copy's as handed
    /// out); `nil` when no exercise has any.
    var hintSteps: ClosedRange<Int>? {
        let counts = allExercises.map { hints(for: $0.exercise, in: $0.chapter).count }.filter { $0 > 0 }
        guard let fewest = counts.min(), let most = counts.max() else { return nil }
        return fewest...most
    }

    /// Whether this is a student copy `workbook export` wrote: it has `workbook.lock`.
    var isStudentCopy: Bool {
        FileManager.default.fileExists(atPath: layout.url(Layout.lockFile).path)
    }

    /// Whether `chapter`'s hints are a student copy's ``ExportedHints`` (its `hints.md` is not here).
    func hintsAreHandedOut(in chapter: Chapter) -> Bool {
        !FileManager.default.fileExists(atPath: hintFile(of: chapter).path) && exportedHints != nil
    }
}

import Foundation

/// One step of an exercise's hint ladder.
public struct HintStep: Sendable, Equatable {
    /// What kind of step it is, from its heading: "Question", "Direction", "Shape".
    public var name: String
    /// Markdown: paragraphs, and code only in ```swift fences.
    public var text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
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
public enum HintFile {
    /// The file's name in a chapter's folder of `Solutions/`.
    public static let name = "hints.md"

    /// The steps of every exercise in the file's text, by exercise ID.
    public static func parse(_ text: String) -> [String: [HintStep]] {
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

extension Workbook {
    /// Where `chapter`'s hints are kept.
    public func hintFile(of chapter: Chapter) -> URL {
        layout.url(Layout.hints(chapter))
    }

    /// The hint ladder of `exercise`; empty when this copy of the workbook has none for it.
    public func hints(for exercise: Exercise, in chapter: Chapter) -> [HintStep] {
        guard let text = try? String(contentsOf: hintFile(of: chapter), encoding: .utf8) else { return [] }
        return HintFile.parse(text)[exercise.id] ?? []
    }
}

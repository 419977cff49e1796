import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
@testable import WorkbookMaintainer
import WorkbookEngineTestSupport

/// Every exercise's hint ladder climbs towards the solution without reaching it: a question, a
/// nudge, then a skeleton with holes. The full code stays behind `workbook solution`.
@Suite("Hint ladders")
struct HintLadderTests {
    /// The steps every ladder has, in order.
    static let steps = StaticCheck.hintSteps

    /// Code of a Swift text, one normalized line per line of code: comments dropped (a `/* … */`
    /// becomes a hole, `…`), spaces removed; blank lines, lone braces and imports left out.
    static func codeLines(_ code: String) -> [String] {
        code.split(separator: "\n").compactMap { raw -> String? in
            var line = String(raw)
            line = line.replacingOccurrences(of: #"/\*.*?\*/"#, with: "…", options: .regularExpression)
            if let comment = line.range(of: "//") { line = String(line[..<comment.lowerBound]) }
            line = line.replacingOccurrences(of: #"\s+"#, with: "", options: .regularExpression)
            if line.isEmpty || line.allSatisfy({ "{}()[],;".contains($0) }) || line.hasPrefix("import") { return nil }
            return line
        }
    }

    /// The Swift code inside a hint step's ```swift fences.
    static func fencedCode(_ markdown: String) -> String {
        var inside = false
        var lines: [String] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inside.toggle(); continue }
            if inside { lines.append(String(line)) }
        }
        return lines.joined(separator: "\n")
    }

    /// Identifier and symbol tokens of normalized code lines.
    static func tokens(_ lines: [String]) -> [String] {
        lines.joined(separator: " ").matches(of: /[A-Za-z_][A-Za-z0-9_]*|\d+|…|[^\sA-Za-z0-9_]/).map { String($0.output) }
    }

    static func grams(_ tokens: [String], _ n: Int) -> Set<[String]> {
        guard tokens.count >= n else { return [] }
        return Set((0...(tokens.count - n)).map { Array(tokens[$0..<($0 + n)]) })
    }

    /// How much of a hint's code is a copy of the solution's: the share of the hint's code lines
    /// found verbatim in the solution, and the share of the solution's 6-token runs the hint
    /// contains. Lines the starter already has (signatures, declarations) count for neither: the
    /// learner has them anyway.
    static func overlap(hint: String, solution: String, starter: String = "") -> (copiedLines: Int, lineShare: Double, solutionShare: Double) {
        let given = Set(codeLines(starter))
        let hintLines = codeLines(hint).filter { !given.contains($0) }
        let solutionLines = codeLines(solution).filter { !given.contains($0) }
        let solutionSet = Set(solutionLines)
        let copied = hintLines.filter { $0.count >= 12 && solutionSet.contains($0) }.count
        let lineShare = hintLines.isEmpty ? 0 : Double(copied) / Double(hintLines.count)
        let solutionGrams = grams(tokens(solutionLines), 6)
        let hintGrams = grams(tokens(hintLines), 6)
        let solutionShare = solutionGrams.isEmpty ? 0 : Double(solutionGrams.intersection(hintGrams).count) / Double(solutionGrams.count)
        return (copied, lineShare, solutionShare)
    }

    /// Every exercise with its hint ladder and its solution's text.
    static func ladders() throws -> [(id: String, steps: [HintStep], solution: String, starter: String)] {
        let workbook = Fixture.workbook
        return try workbook.allExercises.map { item in
            let solution = try String(contentsOf: workbook.solutionFile(item.chapter, item.exercise), encoding: .utf8)
            // The kept copy of the starter (Tests/Starters), not the learner's file, which may be edited.
            let kept = Fixture.packageRoot.appendingPathComponent("Tests/Starters/\(item.chapter.name)/\(item.exercise.file)")
            let starter = (try? String(contentsOf: kept, encoding: .utf8)) ?? ""
            return (item.exercise.id, workbook.hints(for: item.exercise, in: item.chapter), solution, starter)
        }
    }

    @Test("the overlap measure sees a copy, and sees a skeleton as one")
    func measureWorks() {
        let solution = """
            public func total(_ xs: [Int]) -> Int {
                let queue = DispatchQueue(label: "sum")
                return queue.sync { xs.reduce(0, +) + offsetOfTheDay(for: xs.count) }
            }
            """
        let copy = Self.overlap(hint: solution, solution: solution)
        #expect(copy.lineShare > 0.9 && copy.solutionShare > 0.9)
        let skeleton = Self.overlap(hint: "let queue = /* which kind? */\nreturn /* … */", solution: solution)
        #expect(skeleton.solutionShare < 0.3)
    }

    @Test("every exercise has a ladder: a question, a nudge, then a skeleton")
    func everyLadderHasItsSteps() throws {
        for ladder in try Self.ladders() {
            #expect(ladder.steps.map(\.name) == Self.steps, "\(ladder.id): the steps are \(ladder.steps.map(\.name)); expected \(Self.steps)")
            guard ladder.steps.count == Self.steps.count else { continue }
            #expect(ladder.steps[0].text.contains("?"), "\(ladder.id): the first step asks a question")
            #expect(Self.fencedCode(ladder.steps[0].text).isEmpty, "\(ladder.id): the question shows no code")
            #expect(Self.fencedCode(ladder.steps[1].text).isEmpty, "\(ladder.id): the nudge shows no code; code belongs to the skeleton")
            let skeleton = Self.fencedCode(ladder.steps[2].text)
            #expect(!skeleton.isEmpty, "\(ladder.id): the last step is a skeleton in a ```swift fence")
            let holes = skeleton.components(separatedBy: "/*").count - 1 + skeleton.components(separatedBy: "…").count - 1
            #expect(holes >= 2, "\(ladder.id): the skeleton has \(holes) holes (`/* … */`); leave the learner at least two to fill")
        }
    }

    @Test("no hint step is a near copy of its solution")
    func noStepIsTheSolution() throws {
        for ladder in try Self.ladders() {
            for step in ladder.steps {
                let code = Self.fencedCode(step.text)
                guard !code.isEmpty else { continue }
                let measured = Self.overlap(hint: code, solution: ladder.solution, starter: ladder.starter)
                #expect(measured.solutionShare < 0.35,
                        "\(ladder.id) \(step.name): holds \(Int(measured.solutionShare * 100))% of the solution's 6-token runs; leave holes where the answer is")
                #expect(measured.copiedLines < 4 || measured.lineShare < 0.5,
                        "\(ladder.id) \(step.name): \(measured.copiedLines) of its code lines are the solution's, verbatim (\(Int(measured.lineShare * 100))%)")
            }
        }
    }
}

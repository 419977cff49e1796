import Foundation
import Testing
import WorkbookWire

/// The pure part of explored scenarios: seeds that reproduce, the budget each mode sets, shrinking to
/// the smallest failing scenario, and the sentence a learner reads.
@Suite("Explored scenarios: seeds, budgets, shrinking, the report")
struct ExplorationTests {
    struct Numbers: Sendable, Equatable, CustomStringConvertible {
        var values: [Int]
        var description: String { "the numbers \(values)" }
    }

    static func generate(_ random: inout Seeded) -> Numbers {
        Numbers(values: (0..<Int.random(in: 1...8, using: &random)).map { _ in Int.random(in: 0...100, using: &random) })
    }

    static func shrink(_ numbers: Numbers) -> [Numbers] {
        numbers.values.indices.map { index in
            var fewer = numbers.values
            fewer.remove(at: index)
            return Numbers(values: fewer)
        } + numbers.values.indices.filter { numbers.values[$0] > 0 }.map { index in
            var smaller = numbers.values
            smaller[index] /= 2
            return Numbers(values: smaller)
        }
    }

    @Test("a seed gives the same scenario every time, and different seeds different ones")
    func reproducible() {
        var one = Seeded(seed: 42), again = Seeded(seed: 42), other = Seeded(seed: 43)
        let first = Self.generate(&one)
        #expect(first == Self.generate(&again))
        #expect(first != Self.generate(&other))
    }

    @Test("each mode's budget, read back from the variable the grader sets; a seed alone runs one scenario")
    func budgets() throws {
        for budget in [Budget.plain, .check, .selftest, .classroom] {
            #expect(Budget(budget.description) == budget)
            #expect(budget.longestTest < 10, "under the grader's watchdog, which stops a run quiet for 10 s")
        }
        let one = try #require(Budget("seed=17"))
        #expect(one.scenarios == 1 && one.first == 17)
        #expect(Budget("scenarios=x seconds=1") == nil && Budget("nonsense") == nil && Budget("scenarios=0 seconds=1") == nil)
        #expect(Budget.classroom.scenarios <= Budget.selftest.scenarios, "a grade explores no more than the self-test proves")
    }

    @Test("the first failing scenario is shrunk to the smallest that still fails, and its seed runs it again")
    func shrinksAndReproduces() throws {
        // The contract: no number above 50.
        let run: (Numbers) -> Violation? = { numbers in
            numbers.values.contains { $0 > 50 } ? Violation(clause: "No number is above 50.", observed: "\(numbers.values.max()!) was.") : nil
        }
        let found = try #require(explore(budget: Budget(scenarios: 50, seconds: 5), generate: Self.generate, shrink: Self.shrink, run: run))
        #expect(found.scenario.values.count == 1 && (51...100).contains(found.scenario.values[0]), "\(found.scenario)")
        #expect(found.scenario.values[0] / 2 <= 50, "no half of it still fails")
        let again = try #require(explore(budget: .one(found.seed), generate: Self.generate, shrink: Self.shrink, run: run))
        #expect(again.seed == found.seed && again.scenario == found.scenario)
        let report = found.report(test: "Exercise9_9Tests/explored")
        #expect(report.contains("Contract: No number is above 50.") && report.contains("Scenario \(found.seed)"))
        #expect(report.contains("WORKBOOK_EXPLORE=seed=\(found.seed) swift test --filter \"Exercise9_9Tests/explored\""))
    }

    @Test("shrinking keeps the clause it found: a smaller scenario that breaks another clause is not taken")
    func shrinksWithinTheClause() throws {
        // Two clauses: no number above 50 (broken only by two numbers or more), and no odd number.
        let run: (Numbers) -> Violation? = { numbers in
            if numbers.values.count > 1, numbers.values.contains(where: { $0 > 50 }) {
                return Violation(clause: "No number is above 50.", observed: "one was.")
            }
            return numbers.values.contains { !$0.isMultiple(of: 2) } ? Violation(clause: "No number is odd.", observed: "one was.") : nil
        }
        let corner = Numbers(values: [51, 52, 53])
        let found = try #require(explore(budget: Budget(scenarios: 1, seconds: 5), corners: [corner], generate: Self.generate, shrink: Self.shrink, run: run))
        #expect(found.violation.clause == "No number is above 50.")
        #expect(found.scenario.values.count == 2, "the smallest that still has a number above 50: \(found.scenario)")
    }

    @Test("a contract every scenario keeps gives nothing")
    func holds() {
        #expect(explore(budget: Budget(scenarios: 20, seconds: 5), generate: Self.generate, shrink: Self.shrink, run: { _ in nil }) == nil)
    }
}

import Foundation

// Explored scenarios, as Lincheck and QuickCheck do it: a test generates scenarios of an exercise's
// contract from seeds, runs each, and checks what it recorded against the contract's clauses; a
// scenario that breaks a clause is shrunk to the smallest one that still breaks it, and shown with
// its seed, which reproduces it. The pure part — seeds, the budget, shrinking, the report — is here,
// declared once for the chapters' test support (which runs scenarios) and the engine (which sets the
// budget and reads the report), so that the engine's tests can hold it without a TSan build.

/// A reproducible source of pseudo-random numbers (SplitMix64, Steele, Lea and Flood, 2014): the
/// same seed gives the same scenarios on every machine and every run.
package struct Seeded: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// One of `choices`.
    package mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &self)] }

    /// `true` with probability `chance`.
    package mutating func chance(_ chance: Double) -> Bool { Double.random(in: 0..<1, using: &self) < chance }
}

/// How many scenarios a test explores, decided by who runs it (``Budget/variable``).
package struct Budget: Sendable, Equatable, CustomStringConvertible {
    /// Scenarios from seed `first`, `first + 1`, … while any of these limits is left.
    package var scenarios: Int
    package var seconds: Double
    package var first: UInt64

    package init(scenarios: Int, seconds: Double, first: UInt64 = 1) {
        self.scenarios = scenarios
        self.seconds = seconds
        self.first = first
    }

    /// The variable the grader sets in its test processes: `scenarios=N seconds=S`, or `seed=S` to
    /// run one scenario again.
    package static let variable = "WORKBOOK_EXPLORE"

    // Every budget keeps a test well under the grader's watchdog, which stops a run whose event
    // stream stays quiet for 10 s (an exploring test writes nothing until it ends).

    /// Plain `swift test`: a fixed set, the same every run.
    package static let plain = Budget(scenarios: 10, seconds: 3)
    /// `workbook check`: within a time per test (the seeds still fixed, so a failure reproduces).
    package static let check = Budget(scenarios: 100, seconds: 1.5)
    /// `workbook selftest`: more scenarios, fixed.
    package static let selftest = Budget(scenarios: 40, seconds: 4)
    /// A classroom grade: a fixed number, so that one code gets one grade on every machine.
    package static let classroom = Budget(scenarios: 16, seconds: 4)

    /// How long shrinking a failing scenario may take, on top of the budget's time.
    package static let shrinkSeconds = 2.5
    /// The longest one scenario of the chapters' takes, measured with margin: a test explores at
    /// most the budget's time, then shrinks, then finishes the scenario it is in.
    package static let longestScenario = 2.5

    /// The most an exploring test can take: what its child process is bounded by.
    package var longestTest: Double { seconds + Self.shrinkSeconds + Self.longestScenario }

    /// An existing file to which every explored scenario is appended, a line each (`<test>\t<description>`),
    /// when this variable names one: what a maintainer reads to see what a run explored.
    package static let logVariable = "WORKBOOK_EXPLORE_LOG"

    /// `seed=S`: that scenario alone.
    package static func one(_ seed: UInt64) -> Budget { Budget(scenarios: 1, seconds: 60, first: seed) }

    package var description: String { "scenarios=\(scenarios) seconds=\(seconds) first=\(first)" }

    /// Reads the variable's value; `nil` for text that is not one.
    package init?(_ text: String) {
        var scenarios: Int?, seconds: Double?, first: UInt64 = 1
        for field in text.split(separator: " ") {
            let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            switch parts[0] {
            case "scenarios": scenarios = Int(parts[1])
            case "seconds": seconds = Double(parts[1])
            case "first": first = UInt64(parts[1]) ?? 1
            case "seed":
                guard let seed = UInt64(parts[1]) else { return nil }
                self = .one(seed)
                return
            default: return nil
            }
        }
        guard let scenarios, let seconds, scenarios > 0, seconds > 0 else { return nil }
        self.init(scenarios: scenarios, seconds: seconds, first: first)
    }

    /// The budget of this process: from ``variable``, else ``plain``.
    package static var current: Budget {
        ProcessInfo.processInfo.environment[variable].flatMap(Budget.init) ?? .plain
    }
}

/// A clause of a contract that a run broke, and what was seen.
package struct Violation: Sendable, Equatable {
    /// The clause, as the exercise's header states it.
    package var clause: String
    /// What the run showed, as a symptom ("notify's block ran twice").
    package var observed: String
    /// Whether what was seen is a wait that ran out (a call that never returned, an answer that
    /// never came): graded as a hang, like any other bounded wait of a test that runs out.
    package var timedOut: Bool

    package init(clause: String, observed: String, timedOut: Bool = false) {
        self.clause = clause
        self.observed = observed
        self.timedOut = timedOut
    }
}

/// What an exploration found: nothing, or the smallest failing scenario with its seed.
package struct Finding<Scenario: Sendable>: Sendable {
    package var seed: UInt64
    package var scenario: Scenario
    package var violation: Violation
    /// How many scenarios ran before the first failure, and how many shrinking steps held.
    package var tried: Int
    package var shrunk: Int
}

/// Runs `run` on scenarios made by `generate` from the budget's seeds, until one breaks a clause or
/// the budget is spent; then shrinks it: each of `shrink`'s smaller variants is run (twice, since a
/// concurrent failure need not show every time), and the first that still breaks the same clause is
/// kept, until none does or `shrinkSeconds` is up. `nil` when every scenario held.
///
/// `corners` are the scenarios a test names itself, the edges it wants seen first: seed 1 is the
/// first of them, seed 2 the second, …, and the seeds after them are generated — so a corner too
/// runs again from its seed.
package func explore<Scenario: Sendable>(
    budget: Budget = .current, shrinkSeconds: Double = 3,
    corners: [Scenario] = [],
    generate: (inout Seeded) -> Scenario,
    shrink: (Scenario) -> [Scenario],
    run: (Scenario) -> Violation?
) -> Finding<Scenario>? {
    let started = Date()
    for index in 0..<budget.scenarios {
        if index > 0, Date().timeIntervalSince(started) > budget.seconds { break }
        let seed = budget.first &+ UInt64(index)
        var source = Seeded(seed: seed)
        let scenario = seed >= 1 && seed <= UInt64(corners.count) ? corners[Int(seed) - 1] : generate(&source)
        guard let violation = run(scenario) else { continue }
        var smallest = (scenario, violation)
        var steps = 0
        let shrinking = Date()
        search: while Date().timeIntervalSince(shrinking) < shrinkSeconds {
            for candidate in shrink(smallest.0) {
                if Date().timeIntervalSince(shrinking) >= shrinkSeconds { break search }
                // Smaller only while it breaks the same clause: the case shown is the one found.
                if let found = run(candidate) ?? run(candidate), found.clause == violation.clause {
                    smallest = (candidate, found)
                    steps += 1
                    continue search
                }
            }
            break
        }
        return Finding(seed: seed, scenario: smallest.0, violation: smallest.1, tried: index + 1, shrunk: steps)
    }
    return nil
}

extension Finding where Scenario: CustomStringConvertible {
    /// The sentence a learner reads: the clause, what was seen, the scenario in words, and how to
    /// run exactly this scenario again.
    package func report(test: String) -> String {
        let made = shrunk == 0 ? "" : ", made smaller \(shrunk) time\(shrunk == 1 ? "" : "s") while it still failed"
        return "Contract: \(violation.clause) Seen: \(violation.observed) Scenario \(seed) of the ones explored\(made): "
            + "\(scenario). To run it again: \(Budget.variable)=seed=\(seed) swift test --filter \"\(test)\"."
    }
}

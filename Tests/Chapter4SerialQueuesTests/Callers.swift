import WorkbookTestSupport
import WorkbookWire

// The callers the chapter's explored scenarios are made of (the registers of 4.1, 4.3 and 4.5, 4.2's
// updates, 4.4's log): each calls from a place of its own, one call after another — generated,
// and shrunk, the same way.

/// One caller of an explored scenario: where it calls from, and its calls, in order.
struct ScenarioCaller<Call: Sendable & Equatable>: Sendable, Equatable {
    var site: CallSite
    var calls: [Call]

    /// One to four callers, each from a place picked at random, with as many calls as one of
    /// `counts`, each made by `call`.
    static func generate(_ random: inout Seeded, counts: [Int], _ call: (inout Seeded) -> Call) -> [ScenarioCaller] {
        (0..<random.pick([1, 2, 3, 4])).map { _ in
            ScenarioCaller(site: random.pick(CallSite.allCases), calls: (0..<random.pick(counts)).map { _ in call(&random) })
        }
    }
}

/// A scenario made of callers.
protocol CallersScenario: Equatable {
    associatedtype Call: Sendable & Equatable
    var callers: [ScenarioCaller<Call>] { get set }
}

extension Smaller where Scenario: CallersScenario {
    /// Proposes `scenario`, the one being shrunk, without each of its callers in turn.
    mutating func withoutEachCaller(of scenario: Scenario) {
        for index in scenario.callers.indices { with { $0.callers.remove(at: index) } }
    }

    /// Proposes, caller by caller, `scenario` with each of that caller's calls left out (while it
    /// has more than one), each of them made `simplest` (when given), and the caller on a thread.
    mutating func withSimplerCallers(of scenario: Scenario, simplest: Scenario.Call? = nil) {
        for caller in scenario.callers.indices {
            let calls = scenario.callers[caller].calls
            for call in calls.indices.reversed() where calls.count > 1 { with { $0.callers[caller].calls.remove(at: call) } }
            if let simplest {
                for call in calls.indices { with { $0.callers[caller].calls[call] = simplest } }
            }
            with { $0.callers[caller].site = .thread }
        }
    }
}

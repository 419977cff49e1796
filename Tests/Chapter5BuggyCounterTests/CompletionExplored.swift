import Dispatch
import Foundation
import WorkbookTestSupport
import WorkbookWire

// 5.2's and 5.3's contracts, executable and explored, shared as their dimension tests are
// (CompletionDimensions.swift): a scenario hands over a serial, a concurrent or the main queue,
// calls from a thread or from a block on that very queue, gives 0 to 40 pieces that call back
// before they return, from a thread, from `queue`, all at once from four threads, or from another
// call's completion, and may make a second call at the same moment and a third from the first's
// completion. Each run is watched (`WatchedRun`) and held to the clauses in the header's words.
// What completion sees of the callbacks' work is judged by `completionSeesTheCallbacksWork`, with
// nothing of the test's in between: the watched runs count under a lock of their own.

struct CompletionScenario: VariedScenario, Equatable {
    enum Handed: String, CaseIterable, Sendable {
        case serial, concurrent, callers, main, mainCallers

        var phrase: String {
            switch self {
            case .serial: "a serial queue, called from a thread"
            case .concurrent: "a concurrent queue, called from a thread"
            case .callers: "the caller's own serial queue"
            case .main: "the main queue, called from a thread"
            case .mainCallers: "the main queue, called from a block on it"
            }
        }

        /// A new queue of this kind, and the form a watched run makes its call in.
        func make() -> (probe: QueueProbe, form: HandedQueue) {
            switch self {
            case .serial: (HandedQueue.serial.make(), .serial)
            case .concurrent: (HandedQueue.concurrent.make(), .concurrent)
            case .callers: (HandedQueue.callers.make(), .callers)
            case .main: (.main(callFromIt: false), .serial)
            case .mainCallers: (.main(callFromIt: true), .callers)
            }
        }
    }

    var queue: Handed
    var pieces: [PieceStyle]
    /// A second call on the same queue while the first still waits for its pieces.
    var secondAtOnce: Bool
    /// A third call, made from the first call's completion (its caller is then `queue`).
    var fromCompletion: Bool

    var description: String {
        "on \(queue.phrase): " + (pieces.count <= 3 ? describe(pieces, "piece")
            : "\(pieces.count) pieces, " + PieceStyle.allCases.compactMap { style in
                let count = pieces.filter { $0 == style }.count
                return count == 0 ? nil : "\(count) that \(style.rawValue)"
            }.joined(separator: ", "))
            + (secondAtOnce ? "; a second call at the same time" : "")
            + (fromCompletion ? "; a third call from the first one's completion" : "")
    }

    /// `repeats`: a piece may call back twice (5.3's contract allows it; 5.2's does not).
    static func generate(_ random: inout Seeded, _ repeats: Bool) -> CompletionScenario {
        let styles = PieceStyle.allCases.filter { repeats || $0 != .twice }
        return CompletionScenario(queue: random.pick(Handed.allCases),
                                  pieces: (0..<random.pick([0, 1, 2, 3, 8, 40])).map { _ in random.pick(styles) },
                                  secondAtOnce: random.chance(0.25), fromCompletion: random.chance(0.2))
    }

    /// Corners: nothing to wait for on the main queue; every piece before returning, from the main
    /// queue itself; forty at once with a second call; another call inside a piece and from a
    /// completion; and, where the contract allows it, a piece that calls back twice beside one held.
    static func corners(_ repeats: Bool) -> [CompletionScenario] {
        [
            CompletionScenario(queue: .main, pieces: [], secondAtOnce: false, fromCompletion: false),
            CompletionScenario(queue: .mainCallers, pieces: [.synchronous, .synchronous, .synchronous], secondAtOnce: false, fromCompletion: true),
            CompletionScenario(queue: .concurrent, pieces: Array(repeating: .held, count: 40), secondAtOnce: true, fromCompletion: false),
            CompletionScenario(queue: .callers, pieces: [.nested, .fromTheQueue, .synchronous], secondAtOnce: true, fromCompletion: true),
        ] + (repeats ? [CompletionScenario(queue: .serial, pieces: [.twice, .held], secondAtOnce: false, fromCompletion: false)] : [])
    }

    static func shrink(_ scenario: CompletionScenario) -> [CompletionScenario] {
        var smaller = Smaller(than: scenario)
        for index in scenario.pieces.indices.reversed() { smaller.with { $0.pieces.remove(at: index) } }
        for index in scenario.pieces.indices { smaller.with { $0.pieces[index] = .synchronous } }
        smaller.with { $0.secondAtOnce = false }
        smaller.with { $0.fromCompletion = false }
        smaller.with { $0.queue = .serial }
        return smaller.candidates
    }
}

/// 5.2's and 5.3's explored contracts: the scenario above, in the variant each contract allows, run
/// with each suite's function under test.
protocol CompletionContract: ExploredVariant where Scenario == CompletionScenario {
    /// Which exercise the suite grades (its dimension tests' child finds ``call`` from it).
    static var exercise: CompletionExercise { get }
    static var call: CompletionCall { get }
    static var trapAdvice: String { get }
}

extension CompletionContract {
    /// Whether a piece may call back twice: where the contract has a clause that allows it (5.3's).
    static var variant: Bool { call.clauses.repeats != nil }
    /// "Exploring scenarios of runAll's contract".
    static var exploring: String { "Exploring scenarios of \(exercise.name)'s contract" }
    static var ifItCrashed: String { trapAdvice }
    static func run(_ scenario: CompletionScenario) -> Violation? { CompletionDimensions.explore(call, scenario) }
}

extension CompletionDimensions {
    /// One run of `scenario` with the function under test (`call`); the first clause it broke.
    static func explore(_ call: CompletionCall, _ scenario: CompletionScenario) -> Violation? {
        let clauses = call.clauses
        let (probe, form) = scenario.queue.make()
        func watched(_ styles: [PieceStyle], on form: HandedQueue) -> WatchedRun {
            let run = WatchedRun(call, styles, on: form, queue: probe)
            if scenario.queue == .main || scenario.queue == .mainCallers { run.queueName = "the main queue" }
            return run
        }
        let first = watched(scenario.pieces, on: form)
        let second = scenario.secondAtOnce ? watched([.held, .synchronous], on: form) : nil
        let third = scenario.fromCompletion ? watched([.synchronous, .anotherThread], on: .callers) : nil
        let thirdReturned = Signal()
        if let third {
            first.onCompletion = {
                third.startHere()
                thirdReturned.fire()
            }
        }
        for run in [first, second].compactMap({ $0 }) where !run.start() {
            return Violation(clause: clauses.returns, observed: "\(run.name) did not return within 2 s.", timedOut: true)
        }
        for run in [second, first].compactMap({ $0 }) where run.parkedCount > 0 && !run.releaseHeld() {
            return Violation(clause: clauses.returns, observed: "\(run.name): callbacks made from four threads at once did not all return within 2 s.", timedOut: true)
        }
        for run in [second, first].compactMap({ $0 }) where !run.firstCompletion() {
            if run.styles.isEmpty {
                return Violation(clause: clauses.nothingToWaitFor, observed: "\(run.name) did not run completion within 2 s.", timedOut: true)
            }
            return Violation(clause: second == nil ? clauses.once : clauses.ownPiecesOnly,
                             observed: "\(run.name) did not run completion within 2 s of its last callback" + (second == nil ? "." : ", with another call made at the same time."),
                             timedOut: true)
        }
        if let third {
            guard thirdReturned.happens(within: 2) else {
                return Violation(clause: clauses.returns, observed: "\(third.name), made from another call's completion (on `queue`), did not return within 2 s.", timedOut: true)
            }
            guard third.firstCompletion() else {
                return Violation(clause: clauses.ownPiecesOnly, observed: "\(third.name), made from another call's completion, did not run its own completion within 2 s.", timedOut: true)
            }
        }
        guard drained(probe) else {
            return Violation(clause: clauses.returns, observed: "after the completions, `queue` stayed busy for 2 s.", timedOut: true)
        }
        return [first, second, third].compactMap { $0?.violation() }.first
    }
}

import Chapter4SerialQueues
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport
import WorkbookWire

// 4.2's contract, executable, over the history of a run: callers on threads and every kind of queue
// (the main queue too) make updates at once; a transform appends a mark of its own, stores a value at
// an edge (nil, "", 4 000 characters, outside ASCII), holds on while the others ask, or reads and
// updates another store first. Each transform records what it was handed and what it returned, in
// the order the transforms ran, and the history is held to the clauses.

/// One run of updates on one store.
struct UpdateScenario: CallersScenario, Sendable, CustomStringConvertible {
    enum Step: Sendable, Equatable {
        /// Returns the token with a mark of its own appended.
        case append
        /// Returns a value of its own, whatever it was handed.
        case store(RegisterValue)
        /// Appends, after holding on for a moment while the other callers ask.
        case hold
        /// Appends, after reading and updating another store.
        case otherStore
    }

    typealias Caller = ScenarioCaller<Step>

    /// The token before any caller (stored by one update).
    var first: RegisterValue
    var callers: [Caller]

    var description: String {
        "the token starts as \(first.phrase); " + callers.map { caller in
            var parts: [String] = []
            let appends = caller.calls.filter { $0 == .append }.count
            if appends > 0 { parts.append("\(appends) that append\(appends == 1 ? "s" : "")") }
            let stored = caller.calls.compactMap { step -> RegisterValue? in if case let .store(value) = step { value } else { nil } }
            if !stored.isEmpty { parts.append("\(stored.count) that store\(stored.count == 1 ? "s" : "") " + stored.map(\.phrase).joined(separator: ", ")) }
            let holds = caller.calls.filter { $0 == .hold }.count
            if holds > 0 { parts.append("\(holds) that hold\(holds == 1 ? "s" : "") on while others ask") }
            let others = caller.calls.filter { $0 == .otherStore }.count
            if others > 0 { parts.append("\(others) that read\(others == 1 ? "s" : "") and update\(others == 1 ? "s" : "") another store first") }
            return "\(caller.site) makes \(caller.calls.count) update\(caller.calls.count == 1 ? "" : "s") (\(parts.joined(separator: "; ")))"
        }.joined(separator: "; ")
    }

    static func generate(_ random: inout Seeded) -> UpdateScenario {
        let callers = Caller.generate(&random, counts: [1, 3, 10, 25]) { random -> Step in
            switch Double.random(in: 0..<1, using: &random) {
            case ..<0.5: .append
            case ..<0.7: .store(random.pick(RegisterValue.allCases))
            case ..<0.8: .hold
            default: .otherStore
            }
        }
        return UpdateScenario(first: random.pick(RegisterValue.allCases), callers: callers)
    }

    /// Corners: every value stored in turn; a held transform on the main queue while threads and
    /// queues ask; four callers appending at once; transforms that use another store, from everywhere.
    static let corners: [UpdateScenario] = [
        UpdateScenario(first: .none, callers: [Caller(site: .thread, calls: RegisterValue.allCases.flatMap { [.store($0), .append] })]),
        UpdateScenario(first: .long, callers: [Caller(site: .mainQueue, calls: [.hold, .append, .hold]),
                                               Caller(site: .thread, calls: Array(repeating: .append, count: 10)),
                                               Caller(site: .concurrentQueue, calls: [.append, .store(.unicode), .append])]),
        UpdateScenario(first: .empty, callers: [CallSite.thread, .serialQueue, .globalQueue, .mainQueue].map {
            Caller(site: $0, calls: Array(repeating: .append, count: 25))
        }),
        UpdateScenario(first: .short, callers: CallSite.allCases.map { Caller(site: $0, calls: [.otherStore, .append, .otherStore]) }),
    ]

    static func shrink(_ scenario: UpdateScenario) -> [UpdateScenario] {
        var smaller = Smaller(than: scenario, valid: { !$0.callers.isEmpty })
        smaller.withoutEachCaller(of: scenario)
        smaller.withSimplerCallers(of: scenario, simplest: .append)
        smaller.with { $0.first = .none }
        return smaller.candidates
    }
}

/// What the transforms of one run saw, in the order they ran, and when each update began and returned.
final class UpdateHistory: @unchecked Sendable {
    struct Ran {
        var update: Int
        var handed: String?
        var returned: String?
        var onQueue: Bool
    }

    private let lock = NSLock()
    private var clock = 0
    private var running = 0
    private(set) var ran: [Ran] = []
    /// For each update, by its number: when it began and returned on the clock.
    private(set) var spans: [Int: (began: Int, returned: Int)] = [:]
    private(set) var overlapped = false

    /// The clock's next time, for an update that begins.
    func began() -> Int { lock.withLock { clock += 1; return clock } }
    func returned(_ update: Int, began: Int) { lock.withLock { clock += 1; spans[update] = (began, clock) } }
    func enter() { lock.withLock { running += 1; if running > 1 { overlapped = true } } }
    func leave(_ entry: Ran) { lock.withLock { running -= 1; ran.append(entry) } }
    var all: (ran: [Ran], spans: [Int: (began: Int, returned: Int)], overlapped: Bool) { lock.withLock { (ran, spans, overlapped) } }
}

extension Exercise4_2Tests: ExploredContract {
    static let exploring = "Exploring scenarios of update's contract"
    static var ifItCrashed: String { syncInsideSync }
    static var corners: [UpdateScenario] { UpdateScenario.corners }
    static func generate(_ random: inout Seeded) -> UpdateScenario { UpdateScenario.generate(&random) }
    static func shrink(_ scenario: UpdateScenario) -> [UpdateScenario] { UpdateScenario.shrink(scenario) }

    static let exactlyOnce = "`update` is synchronous: it calls `transform` exactly once, before it returns, with the current token; when it returns, the store holds what `transform` returned."
    static let onTheQueue = "`transform` runs on `queue` — the queue 4.1's `token` uses."
    static let nothingBetween = "No other update, get or set comes between the read of the current token and the write of the new one: no update is lost."
    static let oneAtATime = "No two `transform`s of one store run at the same time."
    static let nothingHangs = "`transform` may use another store (its `token`, or its `update`). Nothing traps or hangs."

    /// A token as a learner can read it in a sentence.
    static func shown(_ token: String?) -> String {
        guard let token else { return "nil" }
        return token.count > 40 ? "\"\(token.prefix(12))…\(token.suffix(12))\" (\(token.count) characters)" : "\"\(token)\""
    }

    /// One run of `scenario` on a fresh store; the first clause its history broke.
    static func run(_ scenario: UpdateScenario) -> Violation? {
        let store = Unchecked(TokenStore()), other = Unchecked(TokenStore())
        guard let queue = queueProperty(of: store.value) else {
            return Violation(clause: onTheQueue, observed: "could not check this clause: TokenStore has no stored `DispatchQueue` (or more than one) for the test to find.")
        }
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 42)
        let firstToken = scenario.first.text(0)
        guard finishes(within: 2, { store.value.update { _ in firstToken } }) else {
            return Violation(clause: nothingHangs, observed: "storing the first token with one update did not return within 2 s.", timedOut: true)
        }
        let history = UpdateHistory()
        let problems = Tally<Violation>()
        let callersDone = Signal()
        for (callerIndex, caller) in scenario.callers.enumerated() {
            let steps = caller.calls
            caller.site.start {
                for (stepIndex, step) in steps.enumerated() {
                    let number = callerIndex * 1_000 + stepIndex + 1
                    let calls = Tally<Bool>()
                    let began = history.began()
                    store.value.update { handed in
                        history.enter()
                        calls.append(true)
                        let onQueue = DispatchQueue.getSpecific(key: key) == 42
                        let result: String?
                        switch step {
                        case .append: result = (handed ?? "") + "+\(number)"
                        case let .store(value): result = value.text(number)
                        case .hold:
                            Thread.sleep(forTimeInterval: 0.01)
                            result = (handed ?? "") + "+\(number)"
                        case .otherStore:
                            _ = Exercise4_2Tests.token(of: other.value)
                            other.value.update { ($0 ?? "") + "o" }
                            result = (handed ?? "") + "+\(number)"
                        }
                        history.leave(.init(update: number, handed: handed, returned: result, onQueue: onQueue))
                        return result
                    }
                    history.returned(number, began: began)
                    if calls.count != 1 {
                        problems.append(Violation(clause: exactlyOnce, observed: calls.count == 0
                            ? "an update returned before its transform was called."
                            : "one update called its transform \(calls.count) times."))
                    }
                }
                callersDone.fire()
            }
        }
        for _ in scenario.callers where !callersDone.happens(within: 3) {
            return Violation(clause: nothingHangs, observed: "a caller's updates did not all return within 3 s.", timedOut: true)
        }
        if let problem = problems.all.first { return problem }
        let (ran, spans, overlapped) = history.all
        if ran.contains(where: { !$0.onQueue }) {
            return Violation(clause: onTheQueue, observed: "a transform ran while the store's `queue` was not the queue running it.")
        }
        if overlapped { return Violation(clause: oneAtATime, observed: "two transforms of one store were running at the same moment.") }
        var current = firstToken
        for (index, entry) in ran.enumerated() {
            if entry.handed != current {
                return Violation(clause: nothingBetween, observed: index == 0
                    ? "the first transform to run was handed \(shown(entry.handed)), but the store held \(shown(current))."
                    : "a transform was handed \(shown(entry.handed)), but the transform that ran just before it had returned \(shown(current)).")
            }
            current = entry.returned
        }
        let order = Dictionary(uniqueKeysWithValues: ran.enumerated().map { ($0.element.update, $0.offset) })
        for (earlier, span) in spans {
            if spans.contains(where: { later, laterSpan in laterSpan.began > span.returned && (order[later] ?? 0) < (order[earlier] ?? 0) }) {
                return Violation(clause: exactlyOnce, observed: "an update that began after another had returned ran its transform before that one's.")
            }
        }
        let final = within(2) { Exercise4_2Tests.token(of: store.value) }
        guard let final else {
            return Violation(clause: nothingHangs, observed: "reading the token with one more update did not return within 2 s.", timedOut: true)
        }
        if final != current {
            return Violation(clause: exactlyOnce, observed: "after every update had returned, the store held \(shown(final)), but the last transform to run had returned \(shown(current)).")
        }
        let usedOther = scenario.callers.flatMap(\.calls).filter { $0 == .otherStore }.count
        if usedOther > 0, let otherToken = within(2, { Exercise4_2Tests.token(of: other.value) }),
           otherToken != String(repeating: "o", count: usedOther) {
            return Violation(clause: nothingHangs, observed: "\(usedOther) transforms each updated another store once, appending \"o\", and that store then held \(shown(otherToken)).")
        }
        return nil
    }

    @Test("explored: updates at once from threads and every kind of queue (main too), transforms that append, store nil, \"\", long or non-ASCII tokens, hold on, or use another store: each transform is handed what the one before it returned, on the store's queue, one at a time")
    func explored() async {
        await Self.explore()
    }
}

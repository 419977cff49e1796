import Chapter2Groups
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport
import WorkbookWire

// 2.2's contract, executable: a scenario mixes what the contract allows — 1 to 30 fetches made one
// after the other, every kind of queue handed over (a global one and the main queue too), the calls
// made from a thread, a global queue, the main queue or the very queue they hand over, each service
// answering before its call returns, from another thread, later from a thread of its own, from the
// main queue, or held and let go together with every other held answer (two answers of one fetch on
// two threads at once), with no friends, one or many, and completions that fetch again; one run
// records what happened, and the record is held to each clause of the header.
extension Exercise2_2Tests: ExploredContract {
    static let exploring = "Exploring scenarios of fetchApplicationContext's contract"
    static let ifItCrashed = "libdispatch stops a program that calls `sync` on the serial queue already running the caller, and one that calls `leave()` on a group more often than `enter()`: look at what runs on `queue`, and count what reaches `leave()`."

    enum Answer: String, CaseIterable, Sendable {
        case beforeReturning, anotherThread, later, onTheMainQueue, held

        var phrase: String {
            switch self {
            case .beforeReturning: "before its call returns"
            case .anotherThread: "from another thread"
            case .later: "20 ms later, from a thread of its own"
            case .onTheMainQueue: "from a block on the main queue"
            case .held: "held, then at the same moment as every other held answer"
            }
        }
    }

    typealias Site = ExploredCaller

    struct Fetch: Sendable, Equatable {
        var friends: Answer
        var steps: Answer
        /// How many friends the service names: 0, 1 or many.
        var friendCount: Int
        var stepCount: Int
        /// The completion fetches again, with services that answer at once, on the same queue.
        var fetchesAgain: Bool
    }

    struct Scenario: Sendable, Equatable, CustomStringConvertible {
        var queue: QueueKind
        var site: Site
        var fetches: [Fetch]

        var description: String {
            var parts = ["\(fetches.count) fetch\(fetches.count == 1 ? "" : "es") handed \(queue), called from \(site.phrase)"]
            let shown = fetches.count <= 3 ? fetches : Array(fetches.prefix(2))
            for (number, fetch) in shown.enumerated() {
                parts.append((fetches.count > 1 ? "fetch \(number + 1): " : "")
                    + "friends (\(fetch.friendCount)) answer \(fetch.friends.phrase), steps (\(fetch.stepCount)) \(fetch.steps.phrase)"
                    + (fetch.fetchesAgain ? ", and its completion fetches again" : ""))
            }
            if shown.count < fetches.count {
                let kinds = Set(fetches.flatMap { [$0.friends, $0.steps] }).map(\.phrase).sorted().joined(separator: "; ")
                parts.append("the others answering: \(kinds)")
            }
            return parts.joined(separator: "; ")
        }
    }

    static func generate(_ random: inout Seeded) -> Scenario {
        Scenario(queue: random.pick(QueueKind.allCases), site: random.pick(Site.allCases),
                 fetches: (0..<random.pick([1, 1, 2, 3, 8, 30])).map { _ in
                     Fetch(friends: random.pick(Answer.allCases), steps: random.pick(Answer.allCases),
                           friendCount: random.pick([0, 1, 5]), stepCount: random.pick([0, 1, 12_345]),
                           fetchesAgain: random.chance(0.15))
                 })
    }

    /// The edges, first: no friends and no steps; both answers held and let go together; both
    /// before returning, on the main queue, from the main queue.
    static let corners = [
        Scenario(queue: .serial, site: .thread, fetches: [Fetch(friends: .beforeReturning, steps: .anotherThread, friendCount: 0, stepCount: 0, fetchesAgain: false)]),
        Scenario(queue: .concurrent, site: .thread, fetches: [Fetch(friends: .held, steps: .held, friendCount: 5, stepCount: 12_345, fetchesAgain: false)]),
        Scenario(queue: .main, site: .mainQueue, fetches: [Fetch(friends: .beforeReturning, steps: .beforeReturning, friendCount: 1, stepCount: 1, fetchesAgain: true)]),
    ]

    static func shrink(_ scenario: Scenario) -> [Scenario] {
        var smaller = Smaller(than: scenario)
        for index in scenario.fetches.indices.reversed() where scenario.fetches.count > 1 { smaller.with { $0.fetches.remove(at: index) } }
        for index in scenario.fetches.indices {
            smaller.with { $0.fetches[index].fetchesAgain = false }
            smaller.with { $0.fetches[index].friends = .beforeReturning }
            smaller.with { $0.fetches[index].steps = .beforeReturning }
        }
        smaller.with { $0.site = .thread }
        smaller.with { $0.queue = .serial }
        return smaller.candidates
    }

    /// The context fetch `number` must deliver.
    static func expected(_ fetch: Fetch, _ number: Int) -> ApplicationContext {
        ApplicationContext(friends: (0..<fetch.friendCount).map { "friend \($0) of fetch \(number)" }, steps: fetch.stepCount)
    }

    struct Service: FriendService, StepsService {
        let number: Int
        let fetch: Fetch
        let probe: ProbedQueue
        let release: Gate
        let requested: Tally<(fetch: Int, friends: Bool)>
        let answered: Tally<(fetch: Int, friends: Bool)>

        func getMyFriends(_ completion: @escaping ([String]) -> Void) {
            let names = Exercise2_2Tests.expected(fetch, number).friends
            let done = Unchecked(completion)
            answer(friends: true, fetch.friends) { done.value(names) }
        }

        func getUserSteps(_ completion: @escaping (Int) -> Void) {
            let count = fetch.stepCount
            let done = Unchecked(completion)
            answer(friends: false, fetch.steps) { done.value(count) }
        }

        private func answer(friends: Bool, _ style: Answer, _ callBack: @escaping @Sendable () -> Void) {
            requested.append((number, friends))
            let answer: @Sendable () -> Void = { [answered, number] in
                answered.append((number, friends))
                callBack()
            }
            switch style {
            case .beforeReturning: answer()
            case .anotherThread: startThread(answer)
            // Later answers come on threads of the service's own, as the contract says: not through
            // a global queue, whose few threads (2-core Linux) an answer that blocks them would take
            // for longer than the test waits — a verdict that would then depend on the machine.
            case .later: startThread { usleep(20_000); answer() }
            case .onTheMainQueue: DispatchQueue.main.async(execute: answer)
            case .held: startThread { [release] in _ = release.passes(within: 1); answer() }
            }
        }
    }

    static func run(_ scenario: Scenario) -> Violation? {
        let probe = scenario.queue.make(label: "workbook.explored-fetch")
        let release = Gate()
        let requested = Tally<(fetch: Int, friends: Bool)>(), answered = Tally<(fetch: Int, friends: Bool)>()
        let askedByReturn = Tally<(fetch: Int, asked: Int)>()
        let completions = Tally<(fetch: Int, onQueue: Bool?, context: ApplicationContext, answersIn: Int)>()
        let slow = Tally<Double>()

        @Sendable func makeFetch(_ number: Int) {
            let fetch = scenario.fetches[number]
            let service = Service(number: number, fetch: fetch, probe: probe, release: release, requested: requested, answered: answered)
            let began = DispatchTime.now().uptimeNanoseconds
            fetchApplicationContext(friends: service, steps: service, queue: probe.queue) { context in
                completions.append((number, probe.isCurrent, context, answered.all.filter { $0.fetch == number }.count))
                if fetch.fetchesAgain {
                    let again = Fetch(friends: .beforeReturning, steps: .beforeReturning, friendCount: 1, stepCount: 7, fetchesAgain: false)
                    let service = Service(number: number + 1_000, fetch: again, probe: probe, release: release, requested: Tally(), answered: Tally())
                    fetchApplicationContext(friends: service, steps: service, queue: probe.queue) { context in
                        completions.append((number + 1_000, probe.isCurrent, context, 2))
                    }
                }
            }
            let took = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
            askedByReturn.append((number, requested.all.filter { $0.fetch == number }.count))
            if took > 0.5 { slow.append(took) }
        }

        let returned = Signal()
        let calls: @Sendable () -> Void = {
            for number in scenario.fetches.indices { makeFetch(number) }
            returned.fire()
        }
        scenario.site.start(calls, handedQueue: probe.queue)
        guard returned.happens(within: 1.5) else {
            release.open()
            return Violation(clause: "Both requests start before the call returns; the call waits for no answer.",
                             observed: "the calls of fetchApplicationContext had not returned 1.5 s after they were made.", timedOut: true)
        }
        if let took = slow.all.max() {
            release.open()
            return Violation(clause: "Both requests start before the call returns; the call waits for no answer.",
                             observed: "a call of fetchApplicationContext took \(formatSeconds(took)) to return, while its answers were held back.")
        }
        if let short = askedByReturn.all.first(where: { $0.asked < 2 }) {
            release.open()
            return Violation(clause: "Both requests start before the call returns; the call waits for no answer.",
                             observed: "when a fetch returned, it had asked \(short.asked) of its 2 services.")
        }
        // Every held answer goes at the same moment, once every request is out.
        let total = 2 * scenario.fetches.count
        let settled = Date().addingTimeInterval(0.3)
        while requested.count < total && Date() < settled { usleep(1_000) }
        release.open()
        let expectedCount = scenario.fetches.count + scenario.fetches.filter(\.fetchesAgain).count
        let deadline = Date().addingTimeInterval(1.2)
        while completions.count < expectedCount && Date() < deadline { usleep(1_000) }
        // A moment more, so that a second delivery shows.
        usleep(30_000)

        let seen = completions.all
        for (number, fetch) in scenario.fetches.enumerated() {
            let mine = seen.filter { $0.fetch == number }
            if mine.isEmpty {
                let answers = answered.all.filter { $0.fetch == number }.count
                return Violation(clause: "`completion` runs exactly once, on `queue`, after both answers (either may come first).",
                                 observed: "a fetch whose services had given \(answers) of 2 answers delivered no context within 1.2 s"
                                    + " (it was answered with \(fetch.friendCount) friend\(fetch.friendCount == 1 ? "" : "s") and \(fetch.stepCount) steps).",
                                 timedOut: answers == 2)
            }
            if mine.count > 1 {
                return Violation(clause: "`completion` runs exactly once.", observed: "a fetch delivered \(mine.count) contexts.")
            }
            let completion = mine[0]
            if completion.answersIn < 2 {
                return Violation(clause: "`completion` runs … after both answers (either may come first).",
                                 observed: "a context was delivered when \(completion.answersIn) of the fetch's 2 answers had come in.")
            }
            if completion.onQueue == false {
                return Violation(clause: "`completion` runs exactly once, on `queue`.", observed: "a context was delivered somewhere other than \(scenario.queue).")
            }
            if completion.context != expected(fetch, number) {
                return Violation(clause: "`completion` runs … after both answers: the context it gets carries both.",
                                 observed: "a fetch answered with \(fetch.friendCount) friend\(fetch.friendCount == 1 ? "" : "s") and \(fetch.stepCount) steps delivered \(completion.context.friends.count) friend\(completion.context.friends.count == 1 ? "" : "s") and \(completion.context.steps) steps.")
            }
            if fetch.fetchesAgain {
                let again = seen.filter { $0.fetch == number + 1_000 }
                if again.count != 1 || again[0].onQueue == false || again[0].context != ApplicationContext(friends: ["friend 0 of fetch \(number + 1_000)"], steps: 7) {
                    return Violation(clause: "`completion` runs exactly once, on `queue` (a completion may fetch again).",
                                     observed: "a fetch started from inside a completion delivered \(again.count) context(s) within 1.2 s\(again.first.map { $0.onQueue == false ? ", off the queue" : "" } ?? "").")
                }
            }
        }
        return nil
    }

    @Test("explored: 1 to 30 fetches, every kind of queue (global and main too), called from a thread, a global queue, the main queue or the queue itself, answers every way (held answers on two threads at once), 0, 1 or many friends, completions that fetch again")
    func explored() async {
        await Self.explore()
    }
}

import Chapter3Semaphores
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport
import WorkbookWire

// 3.2's contract, executable: a scenario mixes what the contract allows — fetchAudioList called
// from threads and from blocks on every kind of queue (the main queue too), several callers at
// once; a server that answers before fetchList returns, at once from another thread, a little
// later, on the main queue (as many APIs do), or only a while after everyone has asked; completions
// that ask again while others wait; a service let go once everyone has asked. One run records every
// call, every request and every answer, and the record is held to each clause of the header.
extension Exercise3_2Tests: ExploredCallers {
    static let exploring = "Exploring scenarios of the service's contract"
    static var ifItCrashed: String { syncOntoOwnQueue }
    static let returnsAtOnce = "`fetchAudioList(completion:)` may be called from any thread and returns at once, even while a request is in flight: it never blocks its caller."
    static let call = "fetchAudioList"

    enum Answer: String, CaseIterable, Sendable {
        /// Before fetchList returns, on the thread that called it.
        case beforeReturning
        /// At once, from a thread of its own.
        case anotherThread
        /// From a global queue 20 ms later.
        case later
        /// On the main queue.
        case onMain
        /// Held until 0.3 s after every caller has asked, then from a thread of its own.
        case held
    }

    struct Scenario: Sendable, Equatable, CustomStringConvertible {
        /// Each caller's place, and for each of its calls whether the completion asks again.
        var callers: [Caller]
        /// How the server answers its n-th request (the last one for every later request).
        var answers: [Answer]
        /// The test lets the service go once every caller has asked (no completion asks again then).
        var releasedAfterAsking: Bool

        struct Caller: Sendable, Equatable {
            var site: CallSite
            var asksAgain: [Bool]
        }

        var calls: Int { callers.map(\.asksAgain.count).reduce(0, +) }
        /// Every request the run must see: the callers' and the completions' that ask again.
        var expected: Int { calls + callers.flatMap(\.asksAgain).filter { $0 }.count }

        func answer(_ request: Int) -> Answer { answers.isEmpty ? .later : answers[min(request, answers.count - 1)] }

        var description: String {
            var parts: [String] = []
            for caller in callers {
                let again = caller.asksAgain.filter { $0 }.count
                parts.append("\(caller.site) calls fetchAudioList \(caller.asksAgain.count) time\(caller.asksAgain.count == 1 ? "" : "s")"
                    + (again > 0 ? " (\(again) of the completions ask again)" : ""))
            }
            let said = answers.enumerated().map { "request \($0.offset + 1) \(Self.phrase($0.element))" }
            parts.append("the server answers " + said.joined(separator: ", ") + (answers.count > 1 ? ", and any later request like the last" : ""))
            if releasedAfterAsking { parts.append("the service is let go once everyone has asked") }
            return parts.joined(separator: "; ")
        }

        static func phrase(_ answer: Answer) -> String {
            switch answer {
            case .beforeReturning: "before fetchList returns"
            case .anotherThread: "at once from another thread"
            case .later: "20 ms later"
            case .onMain: "on the main queue"
            case .held: "only 0.3 s after everyone has asked"
            }
        }
    }

    static func generate(_ random: inout Seeded) -> Scenario {
        let released = random.chance(0.2)
        let callers = (0..<random.pick([1, 1, 2, 3])).map { _ in
            Scenario.Caller(site: random.pick(CallSite.allCases),
                            asksAgain: (0..<random.pick([1, 2, 3, 5])).map { _ in !released && random.chance(0.25) })
        }
        let calls = callers.map(\.asksAgain.count).reduce(0, +)
        return Scenario(callers: callers, answers: (0..<random.pick([1, 2, calls])).map { _ in random.pick(Answer.allCases) },
                        releasedAfterAsking: released)
    }

    /// Scenarios seen first: answers before returning and completions that ask again while others
    /// wait, from the main queue and elsewhere.
    static let corners: [Scenario] = [
        Scenario(callers: [.init(site: .mainQueue, asksAgain: [true, false]), .init(site: .thread, asksAgain: [false, true])],
                 answers: [.held, .beforeReturning, .onMain, .beforeReturning], releasedAfterAsking: false),
        Scenario(callers: [.init(site: .serialQueue, asksAgain: [true, true, false])],
                 answers: [.beforeReturning], releasedAfterAsking: false),
        Scenario(callers: [.init(site: .globalQueue, asksAgain: [false, false, false])],
                 answers: [.held, .onMain, .anotherThread], releasedAfterAsking: true),
    ]

    static func shrink(_ scenario: Scenario) -> [Scenario] {
        var smaller = Smaller(than: scenario, valid: { !$0.callers.isEmpty })
        for index in scenario.callers.indices { smaller.with { $0.callers.remove(at: index) } }
        smaller.with { $0.releasedAfterAsking = false }
        for index in scenario.answers.indices.reversed() where scenario.answers.count > 1 { smaller.with { $0.answers.remove(at: index) } }
        for index in scenario.answers.indices { smaller.with { $0.answers[index] = .later } }
        for caller in scenario.callers.indices {
            for call in scenario.callers[caller].asksAgain.indices.reversed() where scenario.callers[caller].asksAgain.count > 1 {
                smaller.with { $0.callers[caller].asksAgain.remove(at: call) }
            }
            smaller.with { $0.callers[caller].site = .thread }
            for call in scenario.callers[caller].asksAgain.indices { smaller.with { $0.callers[caller].asksAgain[call] = false } }
        }
        return smaller.candidates
    }

    /// What one run saw, under one lock: a clock of events; when each call began and returned; each
    /// request's number and when its answer was given; each completion and the answer it got.
    final class Record: @unchecked Sendable {
        private let lock = NSLock()
        private var clock = 0
        private var calls = 0
        private(set) var began: [Int: Int] = [:]
        private(set) var returned: [Int: Int] = [:]
        /// By call: the callers' in order, the caller a call belongs to (`-1`: asked from a completion).
        private(set) var callerOf: [Int: Int] = [:]
        private(set) var requests = 0
        private(set) var inFlight = 0
        private(set) var mostInFlight = 0
        private(set) var answeredAt: [Int: UInt64] = [:]
        /// By call: the requests whose answers its completion got, and how long after each was given.
        private(set) var got: [Int: [(request: Int, after: Double)]] = [:]
        private(set) var slowest = 0.0

        func locked<T>(_ body: (Record) -> T) -> T { lock.withLock { body(self) } }

        func begin(caller: Int) -> Int {
            lock.withLock {
                clock += 1
                defer { calls += 1 }
                began[calls] = clock
                callerOf[calls] = caller
                return calls
            }
        }
        func end(_ call: Int, took: Double) { lock.withLock { clock += 1; returned[call] = clock; slowest = max(slowest, took) } }
        func request() -> Int {
            lock.withLock {
                defer { requests += 1 }
                inFlight += 1
                mostInFlight = max(mostInFlight, inFlight)
                return requests
            }
        }
        func answer(_ request: Int) { lock.withLock { inFlight -= 1; answeredAt[request] = DispatchTime.now().uptimeNanoseconds } }
        /// When every caller had asked (the test opened the gate); `nil` before.
        private var everyoneAsked: UInt64?
        func everyoneHasAsked() { lock.withLock { everyoneAsked = DispatchTime.now().uptimeNanoseconds } }
        /// Nanoseconds from now until 0.3 s after every caller had asked (0 once that has passed).
        func heldFor() -> UInt64 {
            lock.withLock {
                let until = (everyoneAsked ?? 0) + 300_000_000, now = DispatchTime.now().uptimeNanoseconds
                return until > now ? until - now : 0
            }
        }
        func completion(_ call: Int, got request: Int) {
            lock.withLock {
                let after = answeredAt[request].map { Double(DispatchTime.now().uptimeNanoseconds - $0) / 1e9 } ?? 0
                got[call, default: []].append((request, after))
            }
        }
    }

    /// The server of an explored run: numbers its requests and answers each the scenario's way.
    final class ExploredServer: AudioAPI, @unchecked Sendable {
        let scenario: Scenario
        let record: Record
        let release: Gate

        init(_ scenario: Scenario, record: Record, release: Gate) {
            self.scenario = scenario
            self.record = record
            self.release = release
        }

        func fetchList(_ completion: @escaping ([Podcast]) -> Void) {
            let request = record.request()
            let completion = Unchecked(completion), record = record
            let answer: @Sendable () -> Void = {
                record.answer(request)
                completion.value([Podcast(title: "Episode \(request)")])
            }
            switch scenario.answer(request) {
            case .beforeReturning: answer()
            case .anotherThread: startThread(answer)
            case .later: DispatchQueue.global().asyncAfter(deadline: .now() + 0.02, execute: answer)
            case .onMain: DispatchQueue.main.async(execute: answer)
            case .held:
                let release = release
                // Every held request is answered at the same moment at the earliest: a request made
                // later (the previous answer let it start) is not held another 0.3 s. (It was, and a
                // run of ten held requests took 3 s, past the 2.5 s the run waits.)
                startThread {
                    _ = release.passes(within: 2)
                    let wait = record.heldFor()
                    if wait > 0 { usleep(UInt32(wait / 1_000)) }
                    answer()
                }
            }
        }
    }

    /// One run of `scenario`, held to the contract.
    static func run(_ scenario: Scenario) -> Violation? {
        let record = Record()
        let release = Gate()
        let service = LastReference<AudioService>()
        let server = ExploredServer(scenario, record: record, release: release)
        if let hung = make("AudioService(api:)", into: service, letGo: scenario.releasedAfterAsking, { AudioService(api: server) }) {
            return hung
        }

        @Sendable func fetch(caller: Int, asksAgain: Bool) {
            guard let target = service.value else { return }
            let call = record.begin(caller: caller)
            let start = DispatchTime.now().uptimeNanoseconds
            target.fetchAudioList { podcasts in
                record.completion(call, got: Int(podcasts.first?.title.dropFirst("Episode ".count) ?? "") ?? -1)
                if asksAgain { fetch(caller: -1, asksAgain: false) }
            }
            record.end(call, took: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }

        if let stuck = callersReturn(within: 1, scenario.callers.enumerated().map { index, caller in
            ExploredCaller(start: caller.site.start, calls: { for again in caller.asksAgain { fetch(caller: index, asksAgain: again) } })
        }) { return stuck }
        if scenario.releasedAfterAsking { service.letGo() }
        record.everyoneHasAsked()
        release.open()

        let expected = scenario.expected
        // Until every completion has run, or two requests were in flight at once (and a moment more,
        // for a completion called twice, or a request sent twice).
        settle { record.locked { $0.got.values.map(\.count).reduce(0, +) < expected && $0.mostInFlight <= 1 } }

        return record.locked { seen -> Violation? in
            if let slow = tookTooLong(seen.slowest) { return slow }
            if seen.mostInFlight > 1 {
                return Violation(clause: "At most one `api.fetchList` request is in flight: the next one starts only after the previous one has answered, however long that takes.",
                                 observed: "\(seen.mostInFlight) requests were in flight at once.")
            }
            let calls = seen.began.count
            let answered = seen.got.values.filter { $0.count == 1 }.count
            let twice = seen.got.values.filter { $0.count > 1 }.count
            let delivered = seen.got.values.flatMap { $0.map(\.request) }
            if seen.requests != calls || answered != calls || twice > 0 || Set(delivered).count != delivered.count {
                return Violation(clause: "Every caller's `completion` runs exactly once, with the answer to its own request.",
                                 observed: "\(calls) calls made \(seen.requests) requests; \(answered) completions ran once within 2.5 s"
                                    + (twice > 0 ? ", \(twice) more than once" : "")
                                    + (Set(delivered).count != delivered.count ? ", and one answer reached two completions" : "") + ".",
                                 timedOut: twice == 0 && seen.requests <= calls && answered < calls && Set(delivered).count == delivered.count)
            }
            if let late = seen.got.values.compactMap(\.first).map(\.after).max(), late > 0.2 {
                return Violation(clause: "Every caller's `completion` runs as soon as its answer arrives — not held back until later requests have been answered.",
                                 observed: "a completion ran \(formatSeconds((late * 100).rounded() / 100)) after the server had answered its request.")
            }
            let requestOf = seen.got.mapValues { $0[0].request }
            if let (first, second) = servedOutOfOrder(began: seen.began, returned: seen.returned, servedAt: requestOf) {
                return Violation(clause: "Requests reach the server in the order of the calls, each caller's with its own answer.",
                                 observed: seen.callerOf[first] == seen.callerOf[second] && seen.callerOf[first] != -1
                                    ? "one caller's later call got an earlier request's answer."
                                    : "a call made after another had returned got an earlier request's answer.")
            }
            return nil
        }
    }

    @Test("explored: callers on threads and every kind of queue (main too), answers before returning, from other threads, later, on the main queue or held, completions that ask again while others wait, a service let go")
    func explored() async {
        await Self.explore()
    }
}

import Chapter1Latch
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport
import WorkbookWire

// 1.3's contract, executable: a scenario mixes what the contract allows — counts from 0 to 40, calls
// past zero, countDown() from threads and from blocks on every kind of queue (the main queue too),
// waits with every kind of deadline made while the latch is closed and after it opened, notify with
// every kind of queue registered before and after, blocks that hold their queue, blocks that use the
// latch — and one run records what happened; `check` then holds the record to each clause of the
// header, and names the clause it broke.
extension Exercise1_3Tests: ExploredContract {
    static let exploring = "Exploring scenarios of the latch's contract"
    static var ifItCrashed: String { unbalancedLeave }

    /// What a `notify` block does with the latch (the contract allows all of it).
    enum Reentry: String, CaseIterable, Sendable {
        case none, readsCount, countsDown, waits, notifiesAgain
        var phrase: String {
            switch self {
            case .none: ""
            case .readsCount: ", whose block reads count"
            case .countsDown: ", whose block calls countDown()"
            case .waits: ", whose block calls wait(timeout:)"
            case .notifiesAgain: ", whose block calls notify(queue:) again"
            }
        }
    }

    struct Notify: Sendable, Equatable {
        var queue: QueueKind
        /// Registered before the countdowns (else after they all returned).
        var before: Bool
        var reentry: Reentry
        /// The block holds its queue for a while: countDown() and notify() must not wait for it.
        var holds: Bool
    }

    struct Scenario: Sendable, Equatable, CustomStringConvertible {
        var count: Int
        /// Where each countDown() call comes from; as many as `count` plus calls past zero, or
        /// fewer (the latch then never opens).
        var sites: [CallSite]
        /// Waits started while the latch is still closed, and waits made after the countdowns.
        var earlyWaits: [Deadline]
        var lateWaits: [Deadline]
        var notifies: [Notify]

        var opens: Bool { sites.count >= count }

        var description: String {
            var parts = ["a latch of \(count)"]
            if sites.isEmpty {
                parts.append("no countDown() call")
            } else {
                let from = Dictionary(grouping: sites, by: { $0 }).sorted { $0.key.rawValue < $1.key.rawValue }
                    .map { "\($0.value.count) from \($0.key)" }.joined(separator: ", ")
                parts.append("\(sites.count) countDown() call\(sites.count == 1 ? "" : "s") at once (\(from))")
            }
            for wait in earlyWaits { parts.append("a wait(timeout:) with \(wait), made before them") }
            for wait in lateWaits { parts.append("a wait(timeout:) with \(wait), made after them") }
            for notify in notifies {
                parts.append("notify(queue:) with \(notify.queue), registered \(notify.before ? "before" : "after") the countdowns"
                    + notify.reentry.phrase + (notify.holds ? ", whose block holds its queue for 1.2 s" : ""))
            }
            return parts.joined(separator: "; ")
        }
    }

    static func generate(_ random: inout Seeded) -> Scenario {
        let count = random.pick([0, 1, 1, 2, 2, 3, 5, 17, 40])
        let calls = max(0, count + random.pick([0, 0, 0, 1, 2, -1]))
        let sites = (0..<calls).map { _ in random.pick(CallSite.allCases) }
        let opens = calls >= count
        // A wait that never ends is made only where the latch will open.
        let closedDeadlines: [Deadline] = [.past, .now, .ahead(0.05), .ahead(0.2)]
        let anyDeadline: [Deadline] = closedDeadlines + [.ahead(3), .distantFuture]
        let earlyWaits = (0..<random.pick([0, 0, 1, 2, 3])).map { _ in random.pick(opens ? anyDeadline : closedDeadlines) }
        let lateWaits = (0..<random.pick([0, 1, 2])).map { _ in random.pick(opens ? anyDeadline : closedDeadlines) }
        let notifies = (0..<random.pick([0, 1, 2, 3])).map { _ in
            Notify(queue: random.pick(QueueKind.allCases), before: random.chance(0.6),
                   reentry: random.chance(0.5) ? .none : random.pick(Reentry.allCases), holds: random.chance(0.25))
        }
        return Scenario(count: count, sites: sites, earlyWaits: earlyWaits, lateWaits: lateWaits, notifies: notifies)
    }

    /// The edges, first: a latch open from the start with notify on the main queue and a wait already
    /// past; a latch of 1 opened from the main queue with a block that holds its queue and one that
    /// uses the latch; a latch counted past zero; one that never opens.
    static let corners = [
        Scenario(count: 0, sites: [], earlyWaits: [], lateWaits: [.past],
                 notifies: [Notify(queue: .main, before: false, reentry: .none, holds: false)]),
        Scenario(count: 1, sites: [.mainQueue], earlyWaits: [.ahead(3)], lateWaits: [.now],
                 notifies: [Notify(queue: .main, before: true, reentry: .none, holds: true),
                            Notify(queue: .concurrent, before: true, reentry: .countsDown, holds: false)]),
        Scenario(count: 2, sites: [.thread, .globalQueue, .serialQueue], earlyWaits: [.distantFuture], lateWaits: [.past],
                 notifies: [Notify(queue: .global, before: false, reentry: .notifiesAgain, holds: false)]),
        Scenario(count: 3, sites: [.thread, .mainQueue], earlyWaits: [.ahead(0.05)], lateWaits: [.now],
                 notifies: [Notify(queue: .serial, before: true, reentry: .none, holds: false)]),
    ]

    /// Smaller scenarios first: fewer parts, smaller counts, plainer places and queues.
    static func shrink(_ scenario: Scenario) -> [Scenario] {
        var smaller = Smaller(than: scenario)
        for index in scenario.notifies.indices { smaller.with { $0.notifies.remove(at: index) } }
        for index in scenario.earlyWaits.indices { smaller.with { $0.earlyWaits.remove(at: index) } }
        for index in scenario.lateWaits.indices { smaller.with { $0.lateWaits.remove(at: index) } }
        for count in [0, 1, 2, 3] where count < scenario.count {
            smaller.with { shrunk in
                let past = shrunk.sites.count - shrunk.count
                shrunk.count = count
                shrunk.sites = Array(shrunk.sites.prefix(max(0, count + past)))
            }
        }
        if scenario.sites.count > scenario.count { smaller.with { $0.sites.removeLast() } }
        for index in scenario.sites.indices where scenario.sites[index] != .thread { smaller.with { $0.sites[index] = .thread } }
        for index in scenario.notifies.indices {
            smaller.with { $0.notifies[index].holds = false }
            smaller.with { $0.notifies[index].reentry = .none }
            smaller.with { $0.notifies[index].queue = .serial }
        }
        return smaller.candidates
    }

    /// One run of `scenario`, held to the contract.
    static func run(_ scenario: Scenario) -> Violation? {
        guard let made = within(2, { Unchecked(keepAlive(CountDownLatch(count: scenario.count))) }) else {
            return Violation(clause: "Nothing traps or hangs.", observed: "CountDownLatch(count: \(scenario.count)) did not return within 2 s.", timedOut: true)
        }
        let latch = made
        // What each countDown()'s caller wrote before it, plain memory that only the latch orders.
        let written = (0..<scenario.sites.count).map { _ in Box(0) }
        let visibilityChecked = scenario.sites.count == scenario.count

        // notify(queue:) calls and what their blocks saw.
        let runs = Tally<(index: Int, onQueue: Bool?, insideTheCall: Bool, sawAll: Bool, problem: String?)>()
        let insideNotify = ThreadSet()
        let held = Gate()
        var probes: [ProbedQueue] = []
        func register(_ index: Int, _ notify: Notify) -> Violation? {
            let probe = notify.queue.make(label: "workbook.explored-notify")
            probes.append(probe)
            // Bounded below a holding block's 1.2 s: a notify that waits for a block is seen.
            let returned = finishes(within: 0.8) {
                // The thread making the call, while it is in it: a block that runs inside the call
                // finds its own thread here.
                let me = pthread_self()
                insideNotify.insert(me)
                defer { insideNotify.remove(me) }
                latch.value.notify(queue: probe.queue) {
                    let inside = insideNotify.contains(pthread_self())
                    let sawAll = !visibilityChecked || written.allSatisfy { $0.value == 1 }
                    var problem: String?
                    switch notify.reentry {
                    case .none: break
                    case .readsCount:
                        let count = latch.value.count
                        if count != 0 { problem = "count read inside a notify block was \(count), not 0" }
                    case .countsDown:
                        latch.value.countDown()
                        if latch.value.count != 0 { problem = "countDown() inside a notify block left count at \(latch.value.count)" }
                    case .waits:
                        if latch.value.wait(timeout: .now() + 1) != .success { problem = "wait(timeout:) inside a notify block timed out on the open latch" }
                    case .notifiesAgain:
                        latch.value.notify(queue: probe.queue) { runs.append((index + 1000, probe.isCurrent, false, true, nil)) }
                    }
                    runs.append((index, probe.isCurrent, inside, sawAll, problem))
                    if notify.holds { _ = held.passes(within: 1.2) }
                }
            }
            return returned ? nil : Violation(clause: "`notify` does not wait for it.",
                                              observed: "notify(queue:) with \(notify.queue) did not return within 0.8 s.", timedOut: true)
        }
        for (index, notify) in scenario.notifies.enumerated() where notify.before {
            if let violation = register(index, notify) { return violation }
        }

        // Waits made while the latch is closed: each records its deadline, result and return time.
        let waits = Tally<(deadline: UInt64, result: DispatchTimeoutResult, returned: UInt64, sawAll: Bool)>()
        let waitsStarted = Signal(), waitsDone = Signal()
        for deadline in scenario.earlyWaits {
            startThread {
                let time = deadline.time
                waitsStarted.fire()
                let result = latch.value.wait(timeout: time)
                let sawAll = result != .success || !visibilityChecked || written.allSatisfy { $0.value == 1 }
                waits.append((time.uptimeNanoseconds, result, DispatchTime.now().uptimeNanoseconds, sawAll))
                waitsDone.fire()
            }
        }
        for _ in scenario.earlyWaits where !waitsStarted.happens(within: 2) {
            return Violation(clause: "Nothing traps or hangs.", observed: "a waiting thread did not start")
        }

        // The countdowns, sent off at once from their places (no gate: a GCD worker blocked in one
        // costs about a second per extra worker on 2 cores, MEASUREMENTS.md); each records when it
        // began and returned.
        let returned = Signal()
        let times = Tally<(began: UInt64, returned: UInt64)>()
        for (index, site) in scenario.sites.enumerated() {
            site.start {
                written[index].value = 1
                let began = DispatchTime.now().uptimeNanoseconds
                latch.value.countDown()
                times.append((began, DispatchTime.now().uptimeNanoseconds))
                returned.fire()
            }
        }
        for _ in scenario.sites where !returned.happens(within: 2) {
            return Violation(clause: "It never blocks: it neither waits for waiters nor runs or waits for `notify` blocks.",
                             observed: "\(scenario.sites.count - times.count) of \(scenario.sites.count) countDown() calls did not return within 2 s.", timedOut: true)
        }
        // Each call on its own, too: well below a holding notify block's 1.2 s.
        if let slowest = times.all.map({ $0.returned - $0.began }).max(), slowest > 800_000_000 {
            return Violation(clause: "It never blocks: it neither waits for waiters nor runs or waits for `notify` blocks.",
                             observed: "a countDown() call took \(formatSeconds(Double(slowest) / 1e9)) to return.")
        }
        let firstBegan = times.all.map(\.began).min() ?? DispatchTime.now().uptimeNanoseconds
        let lastReturned = times.all.map(\.returned).max() ?? DispatchTime.now().uptimeNanoseconds

        guard let count = within(2, { latch.value.count }) else {
            return Violation(clause: "`count` … any thread may read it at any time.", observed: "count did not return within 2 s.", timedOut: true)
        }
        let expected = max(scenario.count - scenario.sites.count, 0)
        if count != expected {
            return Violation(clause: "`countDown()` lowers the count by one; at zero it does nothing (the count never goes negative).",
                             observed: "after \(scenario.sites.count) countDown() calls on a latch of \(scenario.count), count is \(count), not \(expected).")
        }

        for (index, notify) in scenario.notifies.enumerated() where !notify.before {
            if let violation = register(index, notify) { return violation }
        }
        for deadline in scenario.lateWaits {
            guard let result = within(scenario.opens ? 1 : 2, { latch.value.wait(timeout: deadline.time) }) else {
                return Violation(clause: "every later `wait` … returns `.success` … without waiting for its timeout.",
                                 observed: "wait(timeout:) with \(deadline), made after the latch opened, did not return within 1 s.", timedOut: true)
            }
            if scenario.opens, result != .success {
                return Violation(clause: "once the latch is open, every later `wait` returns `.success`, from any number of threads, without waiting for its timeout.",
                                 observed: "wait(timeout:) with \(deadline), made after the count reached zero, returned .timedOut.")
            }
            if !scenario.opens, result != .timedOut {
                return Violation(clause: "`wait(timeout:)` returns `.timedOut` only if the latch is still closed at the deadline — and `.success` only once it is open.",
                                 observed: "wait(timeout:) with \(deadline) on a latch of \(scenario.count) counted down \(scenario.sites.count) time(s) returned .success.")
            }
        }

        // Every early wait returns: at once when the latch opens, at its deadline when it stays closed.
        for _ in scenario.earlyWaits where !waitsDone.happens(within: 3) {
            return Violation(clause: "When the count reaches zero the latch opens …: every thread already in `wait(timeout:)` returns `.success`.",
                             observed: "a thread waiting since before the countdowns was still in wait(timeout:) 3 s after they returned.")
        }
        for wait in waits.all {
            if wait.result == .success && wait.returned < firstBegan && scenario.count > 0 {
                return Violation(clause: "`wait(timeout:)` returns `.success` only once the latch is open.",
                                 observed: "a wait returned .success before any countDown() had begun.")
            }
            if wait.result == .timedOut && scenario.opens && wait.deadline > lastReturned {
                return Violation(clause: "`wait(timeout:)` returns `.timedOut` only if the latch is still closed at the deadline.",
                                 observed: "a wait returned .timedOut although every countDown() had returned, and the latch was open, before its deadline.")
            }
            if !wait.sawAll {
                return Violation(clause: "Whatever a thread did before its `countDown()` is visible to a thread whose `wait` succeeded.",
                                 observed: "a thread whose wait succeeded did not see what a countDown() caller wrote before its call.")
            }
        }

        // notify blocks: each once, on its queue, not inside the notify() call, only when open.
        let registered = scenario.notifies.count
        let expectedRuns = scenario.opens ? registered + scenario.notifies.filter { $0.reentry == .notifiesAgain }.count : 0
        let deadline = Date().addingTimeInterval(scenario.opens ? 3 : 0.3)
        while runs.count < expectedRuns && Date() < deadline { usleep(2_000) }
        held.open()
        if !scenario.opens {
            if !runs.all.isEmpty {
                return Violation(clause: "`notify(queue:execute:)` runs `execute` … once the latch is open.",
                                 observed: "a notify block ran on a latch of \(scenario.count) that was counted down only \(scenario.sites.count) time(s).")
            }
            return nil
        }
        for index in 0..<registered {
            let mine = runs.all.filter { $0.index == index }
            let notify = scenario.notifies[index]
            if mine.count != 1 {
                return Violation(clause: "`notify(queue:execute:)` runs `execute` exactly once per call … once the latch is open.",
                                 observed: "the block of notify(queue:) with \(notify.queue), registered \(notify.before ? "before" : "after") the countdowns, ran \(mine.count) time(s).")
            }
            let run = mine[0]
            if run.onQueue == false {
                return Violation(clause: "`notify(queue:execute:)` runs `execute` … asynchronously on `queue`.",
                                 observed: "the block of notify(queue:) with \(notify.queue) ran somewhere else.")
            }
            if run.insideTheCall {
                return Violation(clause: "never run on the caller's thread, and `notify` does not wait for it.",
                                 observed: "the block of notify(queue:) with \(notify.queue) ran inside the notify(queue:) call itself.")
            }
            if !run.sawAll {
                return Violation(clause: "Whatever a thread did before its `countDown()` is visible … inside a `notify` block.",
                                 observed: "a notify block did not see what a countDown() caller wrote before its call.")
            }
            if let problem = run.problem {
                return Violation(clause: "A `notify` block may use the latch: `count`, `countDown()`, `wait`, `notify`.", observed: problem + ".")
            }
        }
        if runs.all.filter({ $0.index >= 1000 }).count != scenario.notifies.filter({ $0.reentry == .notifiesAgain }).count {
            return Violation(clause: "A `notify` block may use the latch: … `notify`.",
                             observed: "a notify(queue:) made inside a notify block on the open latch did not run its block once.")
        }
        withExtendedLifetime(probes) {}
        return nil
    }

    @Test("explored: counts 0 to 40, calls from threads and every kind of queue (main too), every deadline, notify on every queue, blocks that hold or use the latch")
    func explored() async {
        await Self.explore()
    }
}

import Chapter2Groups
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport
import WorkbookWire

// 2.4's contract, executable, around its deadline: a scenario mixes deadlines already past, `.now()`,
// a little and further ahead, and never, with functions that call back before they return, from
// another thread before the deadline, just after it (between the deadline and the answer a right
// waitForAll has already given), only after waitForAll returned, or never (they drop their
// callback), with waitForAll called from a thread, the main queue or a global queue; the record is
// held to each clause of the header.
extension Exercise2_4Tests: ExploredContract {
    static let exploring = "Exploring scenarios of waitForAll's deadline"
    static let ifItCrashed = "libdispatch stops a program that calls `leave()` on a group more often than `enter()`: a callback that comes after the answer must not leave a group nobody entered for it."

    enum Callback: String, CaseIterable, Sendable {
        case beforeReturning, beforeTheDeadline, justAfterTheDeadline, afterTheAnswer, dropped

        var phrase: String {
            switch self {
            case .beforeReturning: "calling back before they return"
            case .beforeTheDeadline: "calling back from another thread 0.1 s before the deadline"
            case .justAfterTheDeadline: "calling back from another thread 0.08 s after the deadline"
            case .afterTheAnswer: "calling back only after waitForAll has returned"
            case .dropped: "dropping their callback"
            }
        }

        /// Whether a function that calls back this way has called back by the deadline.
        var byTheDeadline: Bool { self == .beforeReturning || self == .beforeTheDeadline }
    }

    /// Where waitForAll is called from: a thread, the main queue or a global queue.
    static let sites: [CallSite] = [.thread, .mainQueue, .globalQueue]

    struct Scenario: Sendable, Equatable, CustomStringConvertible {
        var deadline: Deadline
        var callbacks: [Callback]
        var site: CallSite

        /// The answer the contract demands.
        var allInTime: Bool { callbacks.allSatisfy(\.byTheDeadline) }

        var description: String {
            let kinds = Dictionary(grouping: callbacks, by: { $0 }).sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.value.count) \($0.key.phrase)" }.joined(separator: ", ")
            return "waitForAll with \(deadline), called from \(site), over "
                + (callbacks.isEmpty ? "an empty list" : "\(callbacks.count) function\(callbacks.count == 1 ? "" : "s") (\(kinds))")
        }
    }

    /// One way of being late at a time, so that each is seen on its own: a scenario whose only late
    /// function called back just after the deadline is the one a grace period gets wrong.
    static func generate(_ random: inout Seeded) -> Scenario {
        let deadline = random.pick([Deadline.past, .now, .ahead(0.15), .ahead(0.15), .ahead(0.25), .distantFuture])
        let room = deadline.seconds.map { $0 >= 0.15 } ?? false
        let inTime: [Callback] = room ? [.beforeReturning, .beforeTheDeadline] : [.beforeReturning]
        var lateness: [Callback?] = [nil, .afterTheAnswer, .dropped]
        if room { lateness.append(.justAfterTheDeadline); lateness.append(.justAfterTheDeadline) }
        let late = deadline == .distantFuture ? nil : random.pick(lateness)
        var callbacks = (0..<random.pick([0, 1, 2, 3])).map { _ in random.pick(inTime) }
        if let late { callbacks += Array(repeating: late, count: random.pick([1, 1, 2])) }
        callbacks.shuffle(using: &random)
        return Scenario(deadline: deadline, callbacks: callbacks, site: random.pick(Self.sites))
    }

    /// The edges, first: every function in time with the deadline already past or `.now()`, one
    /// calling back just after the deadline, one dropped, an empty list.
    static let corners = [
        Scenario(deadline: .past, callbacks: [.beforeReturning, .beforeReturning], site: .thread),
        Scenario(deadline: .ahead(0.15), callbacks: [.beforeReturning, .justAfterTheDeadline], site: .thread),
        Scenario(deadline: .now, callbacks: [.beforeReturning], site: .mainQueue),
        Scenario(deadline: .ahead(0.15), callbacks: [.beforeTheDeadline, .dropped], site: .globalQueue),
        Scenario(deadline: .past, callbacks: [], site: .thread),
    ]

    static func shrink(_ scenario: Scenario) -> [Scenario] {
        var smaller = Smaller(than: scenario)
        for index in scenario.callbacks.indices.reversed() { smaller.with { $0.callbacks.remove(at: index) } }
        smaller.with { $0.site = .thread }
        return smaller.candidates
    }

    static func run(_ scenario: Scenario) -> Violation? {
        let late = Gate()
        let startedAt = DispatchTime.now()
        let deadline = scenario.deadline.time
        let deadlineNanos = deadline == .distantFuture ? UInt64.max : deadline.uptimeNanoseconds
        let functions: [FunctionWithCallback] = scenario.callbacks.map { kind in
            { handed in
                let done = Unchecked(handed)
                switch kind {
                case .beforeReturning: done.value()
                case .beforeTheDeadline:
                    startThread {
                        usleep(UInt32(max(0, (scenario.deadline.seconds ?? 0) - 0.1) * 1e6))
                        done.value()
                    }
                case .justAfterTheDeadline:
                    startThread {
                        usleep(UInt32(((scenario.deadline.seconds ?? 0) + 0.08) * 1e6))
                        done.value()
                    }
                case .afterTheAnswer:
                    startThread {
                        _ = late.passes(within: 5)
                        done.value()
                    }
                case .dropped:
                    break
                }
            }
        }
        let boxed = Unchecked(functions)
        let answers = Tally<(result: Bool, returned: UInt64)>()
        let returned = Signal()
        let call: @Sendable () -> Void = {
            let result = waitForAll(boxed.value, timeout: deadline)
            answers.append((result, DispatchTime.now().uptimeNanoseconds))
            returned.fire()
        }
        scenario.site.start(call)
        // "Soon after" is 0.5 s, as the suite's other tests hold it; a little more to notice.
        let bound = (scenario.deadline.seconds ?? 0.3) + 0.7
        guard returned.happens(within: bound) else {
            late.open()
            return Violation(clause: "Returns `false` when the deadline passes while a function still holds its callback uncalled: not before the deadline, and soon after it.",
                             observed: "waitForAll had not returned \(formatSeconds(bound)) after it was called.")
        }
        late.open()
        guard let answer = answers.all.first else { return nil }
        // Measured from the deadline, or from the call when the deadline had already passed then.
        let due = max(min(deadlineNanos, UInt64(Int64.max)), startedAt.uptimeNanoseconds)
        let after = (Double(Int64(answer.returned) - Int64(due)) / 1e6).rounded() / 1e3
        if scenario.allInTime {
            if !answer.result {
                return Violation(clause: "Returns `true` as soon as every function has called back — at once for an empty list, or when all of them called back before returning.",
                                 observed: "waitForAll returned false although every function had called back before the deadline.")
            }
            let took = (Double(answer.returned - startedAt.uptimeNanoseconds) / 1e6).rounded() / 1e3
            let lastCallback = scenario.callbacks.contains(.beforeTheDeadline) ? max(0, (scenario.deadline.seconds ?? 0) - 0.1) : 0
            if took > lastCallback + 0.3 {
                return Violation(clause: "Returns `true` as soon as every function has called back.",
                                 observed: "waitForAll returned true \(formatSeconds(took - lastCallback)) after the last callback.")
            }
        } else {
            if answer.result {
                return Violation(clause: "Returns `false` when the deadline passes while a function still holds its callback uncalled.",
                                 observed: "waitForAll returned true although a function had not called back by the deadline\(scenario.callbacks.contains(.justAfterTheDeadline) ? " (it called back 0.08 s after it)" : "").")
            }
            if after < -0.05 {
                return Violation(clause: "Returns `false` … not before the deadline.", observed: "waitForAll returned false \(formatSeconds(-after)) before its deadline.")
            }
            if after > 0.5 {
                return Violation(clause: "Returns `false` … soon after it.", observed: "waitForAll returned false \(formatSeconds(after)) after its deadline.")
            }
        }
        // Callbacks after the answer change nothing: a later call still answers as it must.
        usleep(20_000)
        guard let again = within(1, { waitForAll([{ $0() }], timeout: .now() + 1) }), again else {
            return Violation(clause: "Callbacks that come after a timeout change nothing: the answer already given stands, and nothing stops the program.",
                             observed: "after late callbacks, a new waitForAll whose one function called back at once did not return true within 1 s.")
        }
        return nil
    }

    @Test("explored: deadlines past, now, soon, further and never; callbacks before returning, before the deadline, just after it, after the answer, or never; called from a thread, the main queue or a global queue")
    func explored() async {
        await Self.explore()
    }
}

import Chapter5BuggyCounter
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport
import WorkbookWire

// 5.1's contract, executable: a scenario mixes increments and reads of `value` from threads and from
// blocks on every kind of queue (the main queue too), up to four callers at once; one run records
// when each call began and returned on one clock, and every read is held to the clauses: at least
// every hit whose increment() had returned before the read began, at most every one begun before it
// returned, never less than the read before it on the same caller — and at the end, every hit.
extension Exercise5_1Tests: ExploredContract {
    static let exploring = "Exploring scenarios of the counter's contract"
    static var ifItCrashed: String { trapAdvice }

    struct Scenario: Sendable, Equatable, CustomStringConvertible {
        struct Caller: Sendable, Equatable {
            var site: CallSite
            /// `true` for increment(), `false` for a read of `value`.
            var calls: [Bool]
        }

        var callers: [Caller]

        var description: String {
            callers.map { caller in
                let increments = caller.calls.filter { $0 }.count
                return "\(caller.site) calls increment() \(increments) time\(increments == 1 ? "" : "s") and reads value \(caller.calls.count - increments) time\(caller.calls.count - increments == 1 ? "" : "s"), mixed"
            }.joined(separator: "; ")
        }
    }

    static func generate(_ random: inout Seeded) -> Scenario {
        Scenario(callers: (0..<random.pick([1, 2, 3, 4])).map { _ in
            Scenario.Caller(site: random.pick(CallSite.allCases),
                            calls: (0..<random.pick([1, 5, 20, 100])).map { _ in random.chance(0.6) })
        })
    }

    static let corners: [Scenario] = [
        Scenario(callers: [.init(site: .mainQueue, calls: Array(repeating: true, count: 50) + [false]),
                           .init(site: .thread, calls: Array(repeating: false, count: 30)),
                           .init(site: .concurrentQueue, calls: (0..<60).map { $0.isMultiple(of: 2) })]),
        Scenario(callers: [.init(site: .globalQueue, calls: (0..<40).map { $0 % 3 != 0 }),
                           .init(site: .serialQueue, calls: (0..<40).map { $0 % 3 == 0 })]),
    ]

    static func shrink(_ scenario: Scenario) -> [Scenario] {
        var smaller = Smaller(than: scenario, valid: { !$0.callers.isEmpty })
        for index in scenario.callers.indices { smaller.with { $0.callers.remove(at: index) } }
        for caller in scenario.callers.indices {
            let calls = scenario.callers[caller].calls
            if calls.count > 1 {
                smaller.with { $0.callers[caller].calls = Array(calls.prefix(calls.count / 2)) }
                smaller.with { $0.callers[caller].calls = Array(calls.suffix(calls.count / 2)) }
            }
            smaller.with { $0.callers[caller].site = .thread }
        }
        return smaller.candidates
    }

    /// The calls of one run on one clock.
    final class History: @unchecked Sendable {
        struct Read { var caller: Int; var value: Int; var began: Int; var returned: Int }
        private let lock = NSLock()
        private var clock = 0
        private(set) var increments: [(began: Int, returned: Int)] = []
        private(set) var reads: [Read] = []

        func locked<T>(_ body: (History) -> T) -> T { lock.withLock { body(self) } }
        func tick() -> Int { lock.withLock { clock += 1; return clock } }
        func incremented(began: Int) { lock.withLock { clock += 1; increments.append((began, clock)) } }
        func read(_ caller: Int, _ value: Int, began: Int) { lock.withLock { clock += 1; reads.append(Read(caller: caller, value: value, began: began, returned: clock)) } }
    }

    static func run(_ scenario: Scenario) -> Violation? {
        let counter = Unchecked(HitCounter())
        let history = History()
        let callersDone = Signal()
        for (index, caller) in scenario.callers.enumerated() {
            let calls = caller.calls
            caller.site.start {
                for increments in calls {
                    let began = history.tick()
                    if increments {
                        counter.value.increment()
                        history.incremented(began: began)
                    } else {
                        history.read(index, counter.value.value, began: began)
                    }
                }
                callersDone.fire()
            }
        }
        for _ in scenario.callers where !callersDone.happens(within: 2) {
            return Violation(clause: "`increment()` and `value` may be called from any number of threads at once; nothing traps or hangs.",
                             observed: "a caller's calls did not all return within 2 s.", timedOut: true)
        }
        let total = scenario.callers.flatMap(\.calls).filter { $0 }.count
        guard let final = within(2, { counter.value.value }) else {
            return Violation(clause: "Nothing traps or hangs.", observed: "a last read of value did not return within 2 s.", timedOut: true)
        }
        return history.locked { seen -> Violation? in
            var last: [Int: Int] = [:]
            for read in seen.reads.sorted(by: { $0.returned < $1.returned }) {
                let counted = seen.increments.filter { $0.returned < read.began }.count
                let begun = seen.increments.filter { $0.began < read.returned }.count
                if read.value < counted {
                    return Violation(clause: "`increment()` is synchronous: its hit is counted by the time it returns.",
                                     observed: "value read \(read.value) after \(counted) increment() calls had returned.")
                }
                if read.value > begun {
                    return Violation(clause: "`increment()` adds exactly one hit.",
                                     observed: "value read \(read.value) when only \(begun) increment() calls had begun.")
                }
                if let before = last[read.caller], read.value < before {
                    return Violation(clause: "On one thread, successive reads never go down.",
                                     observed: "one caller read \(before), then \(read.value).")
                }
                last[read.caller] = read.value
            }
            if final != total {
                return Violation(clause: "`increment()` adds exactly one hit, from any number of threads at once.",
                                 observed: "\(total) increment() calls left value at \(final).")
            }
            return nil
        }
    }

    @Test("explored: increments and reads mixed, from threads and every kind of queue (main too), up to four callers at once: every read between what had been counted and what had begun, never down, and every hit counted")
    func explored() async {
        await Self.explore()
    }
}

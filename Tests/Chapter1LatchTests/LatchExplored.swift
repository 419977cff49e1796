import Chapter1Latch
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport
import WorkbookWire

// 1.1's and 1.2's contracts, executable: the two `makeLatch`s differ only in the Bool, so one
// scenario serves both. It mixes what the contracts allow — counts from 0 to 40; calls from threads
// and from blocks on every kind of queue (the main queue too), several callers at once, calls past
// zero; a whenZero that does nothing else, calls the block itself, waits for another thread's call
// of the block, or holds on while the others go on calling; each caller's Bools all true, or one of
// them false. A run records every call and whenZero, and the record is held to each clause.
// (Visibility is not judged here: the record's own lock orders every call before whenZero. The
// suites' visibility tests judge it, with nothing of the test's in between.)

struct LatchScenario: VariedScenario, Equatable {
    enum WhenZero: String, CaseIterable, Sendable {
        case returns
        /// Calls the block itself (that call does nothing).
        case callsTheBlock
        /// Waits for a thread of its own that calls the block.
        case waitsForAnotherThreadsCall
        /// Holds on for 30 ms while the other callers go on.
        case holdsOn
    }

    struct Caller: Sendable, Equatable {
        var site: CallSite
        var calls: Int
        /// The call (by index) that passes `false`, if any (1.2; 1.1 has no Bool).
        var falseAt: Int?
    }

    /// Whether the exercise's latch passes a Bool (1.2) or not (1.1, whose whenZero is given `true`).
    var bools: Bool
    var count: Int
    var whenZero: WhenZero
    var callers: [Caller]

    var calls: Int { callers.map(\.calls).reduce(0, +) }

    var description: String {
        var parts = ["a latch of \(count) whose whenZero " + Self.phrase(whenZero)]
        for caller in callers {
            parts.append("\(caller.site) calls it \(caller.calls) time\(caller.calls == 1 ? "" : "s")"
                + (bools ? (caller.falseAt.map { ", passing false in call \($0 + 1) and true otherwise" } ?? ", passing true") : ""))
        }
        return parts.joined(separator: "; ")
    }

    static func phrase(_ whenZero: WhenZero) -> String {
        switch whenZero {
        case .returns: "just returns"
        case .callsTheBlock: "calls the block itself"
        case .waitsForAnotherThreadsCall: "waits for another thread's call of the block"
        case .holdsOn: "holds on for 30 ms while the others go on calling"
        }
    }

    static func generate(_ random: inout Seeded, _ bools: Bool) -> LatchScenario {
        let count = random.pick([0, 1, 1, 2, 3, 7, 40])
        let callers = (0..<random.pick([1, 2, 3, 4])).map { _ -> Caller in
            let calls = random.pick([0, 1, 2, 5, 12])
            return Caller(site: random.pick(CallSite.allCases), calls: calls,
                          falseAt: bools && calls > 0 && random.chance(0.4) ? Int.random(in: 0..<calls, using: &random) : nil)
        }
        return LatchScenario(bools: bools, count: count, whenZero: random.pick(WhenZero.allCases), callers: callers)
    }

    /// Corners: exactly `count` calls from the main queue and elsewhere, then past zero, with a
    /// whenZero that uses the block while others wait.
    static func corners(_ bools: Bool) -> [LatchScenario] {
        [WhenZero.callsTheBlock, .waitsForAnotherThreadsCall, .holdsOn].flatMap { whenZero in
            [
                LatchScenario(bools: bools, count: 6, whenZero: whenZero, callers: [
                    Caller(site: .mainQueue, calls: 3, falseAt: bools ? 2 : nil), Caller(site: .thread, calls: 3, falseAt: nil),
                ]),
                LatchScenario(bools: bools, count: 2, whenZero: whenZero, callers: [
                    Caller(site: .concurrentQueue, calls: 5, falseAt: nil), Caller(site: .globalQueue, calls: 5, falseAt: nil),
                ]),
            ]
        } + [LatchScenario(bools: bools, count: 0, whenZero: .callsTheBlock, callers: [Caller(site: .mainQueue, calls: 2, falseAt: nil)])]
    }

    static func shrink(_ scenario: LatchScenario) -> [LatchScenario] {
        var smaller = Smaller(than: scenario, valid: { !$0.callers.isEmpty })
        for index in scenario.callers.indices { smaller.with { $0.callers.remove(at: index) } }
        smaller.with { $0.whenZero = .returns }
        for count in [1, 2, 3] where count < scenario.count { smaller.with { $0.count = count } }
        for caller in scenario.callers.indices {
            for calls in [1, 2, 3] where calls < scenario.callers[caller].calls {
                smaller.with {
                    $0.callers[caller].calls = calls
                    if let at = $0.callers[caller].falseAt, at >= calls { $0.callers[caller].falseAt = calls - 1 }
                }
            }
            smaller.with { $0.callers[caller].site = .thread }
        }
        return smaller.candidates
    }
}

/// What one run saw, under one lock.
private final class LatchRecord: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var began = 0
    private(set) var fired: [(insideCall: Bool, callsBegun: Int, value: Bool, duringMake: Bool)] = []
    private(set) var problems: [Violation] = []
    private(set) var slowest = 0.0
    var making = false

    func locked<T>(_ body: (LatchRecord) -> T) -> T { lock.withLock { body(self) } }
    func begin() { lock.withLock { began += 1 } }
    func returned(took: Double) { lock.withLock { slowest = max(slowest, took) } }
    func fire(_ entry: (insideCall: Bool, callsBegun: Int, value: Bool, duringMake: Bool)) { lock.withLock { fired.append(entry) } }
    func problem(_ violation: Violation) { lock.withLock { problems.append(violation) } }
}

/// One run of `scenario` through `make`, the exercise's `makeLatch` seen as taking and passing a
/// Bool (``LatchScenario/bools``).
func runLatch(
    _ scenario: LatchScenario,
    make: @escaping @Sendable (Int, @escaping (Bool) -> Void) -> (Bool) -> Void
) -> Violation? {
    let record = LatchRecord()
    let inside = ThreadSet()
    let maker = ThreadSet()
    let block = Slot<(Bool) -> Void>()
    let everyCallCounted = scenario.calls == scenario.count

    @Sendable func call(_ value: Bool) {
        guard let latch = block.value.map(Unchecked.init) else { return }
        let me = pthread_self()
        inside.insert(me)
        record.begin()
        let start = DispatchTime.now().uptimeNanoseconds
        latch.value(value)
        record.returned(took: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        inside.remove(me)
    }

    let usedTheBlock = Flag()
    let whenZero: (Bool) -> Void = { value in
        let me = pthread_self()
        record.fire((inside.contains(me), record.locked { $0.began }, value, maker.contains(me)))
        // Only the first whenZero uses the block: one run again by that call is seen as a second
        // run (a wrong count), not as a recursion that ends the child.
        let first = !usedTheBlock.value
        usedTheBlock.set(true)
        switch first ? scenario.whenZero : .returns {
        case .returns: break
        case .callsTheBlock: call(true)
        case .waitsForAnotherThreadsCall:
            let done = Signal()
            startThread { call(true); done.fire() }
            if !done.happens(within: 1) {
                record.problem(Violation(clause: "Other threads may call the block while `whenZero` runs: neither may trap, nor wait for `whenZero` to finish.",
                                         observed: "a call made from another thread while whenZero ran did not return within 1 s.", timedOut: true))
            }
        case .holdsOn: usleep(30_000)
        }
    }

    // makeLatch itself, on a thread of the test: a latch of zero runs whenZero right there.
    let made = Signal()
    let handed = Unchecked(whenZero)
    startThread {
        maker.insert(pthread_self())
        let latch = make(scenario.count, handed.value)
        maker.remove(pthread_self())
        block.value = latch
        made.fire()
    }
    guard made.happens(within: 2) else {
        return Violation(clause: "Nothing traps or hangs.", observed: "makeLatch(count: \(scenario.count), whenZero:) did not return within 2 s.", timedOut: true)
    }

    let callersDone = Signal()
    for caller in scenario.callers {
        let calls = caller.calls, falseAt = caller.falseAt
        caller.site.start {
            for number in 0..<calls { call(number != falseAt) }
            callersDone.fire()
        }
    }
    for _ in scenario.callers where !callersDone.happens(within: 2) {
        return Violation(clause: "Calls come from any threads, however many at the same moment; nothing traps or waits for `whenZero` to finish.",
                         observed: "a caller's calls did not all return within 2 s.", timedOut: true)
    }
    // A whenZero run late, or twice, shows up a moment later.
    usleep(20_000)

    return record.locked { seen -> Violation? in
        if let problem = seen.problems.first { return problem }
        let expected = scenario.count == 0 || scenario.calls >= scenario.count ? 1 : 0
        if seen.fired.count != expected {
            return Violation(clause: "After the block has been called `count` times, `whenZero` runs exactly once, whichever threads make the calls; calls after that do nothing.",
                             observed: "a latch of \(scenario.count) called \(scenario.calls) time\(scenario.calls == 1 ? "" : "s") ran whenZero \(seen.fired.count) time\(seen.fired.count == 1 ? "" : "s").")
        }
        guard let fired = seen.fired.first else { return nil }
        if scenario.count == 0 {
            if !fired.duringMake {
                return Violation(clause: "`count == 0`: `whenZero` runs on the caller's thread before `makeLatch` returns.",
                                 observed: "a latch of 0 ran whenZero " + (fired.insideCall ? "inside a call of its block." : "after makeLatch had returned, or on another thread."))
            }
        } else if !fired.insideCall {
            return Violation(clause: "`whenZero` runs synchronously on the thread that makes the `count`-th call, before that call returns: not on another thread or queue.",
                             observed: "whenZero ran on a thread that was not inside a call of the block.")
        } else if fired.callsBegun < scenario.count {
            return Violation(clause: "`whenZero` runs on the thread that makes the `count`-th call: not earlier.",
                             observed: "whenZero ran when only \(fired.callsBegun) of \(scenario.count) calls had been made.")
        }
        if scenario.bools {
            let anyFalse = scenario.callers.contains { $0.falseAt != nil }
            let want: Bool? = scenario.count == 0 || !anyFalse ? true : (everyCallCounted ? false : nil)
            if let want, fired.value != want {
                return Violation(clause: "`whenZero` runs with `true` if every one of the `count` calls passed `true`, with `false` otherwise (`count == 0`: `true`).",
                                 observed: "whenZero got \(fired.value)" + (anyFalse ? ", although one of the counted calls passed false." : ", although every call passed true."))
            }
        }
        return nil
    }
}

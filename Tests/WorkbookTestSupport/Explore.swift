import Dispatch
import Foundation
import Testing
import WorkbookWire

// What explored scenarios are made of: the queues a caller hands over, the places a call comes from,
// the deadlines it takes — each a value a scenario generator picks, described in words a learner
// reads when that scenario fails (see `explore` in WorkbookWire: seeds, budget, shrinking).

/// The kinds of queue a caller may hand to learner code: every one a contract that takes "a queue"
/// allows.
package enum QueueKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A serial queue of the caller's.
    case serial
    /// A concurrent queue of the caller's: blocks on it run side by side.
    case concurrent
    /// A global queue: concurrent, shared with the whole process, and no queue-specific data.
    case global
    /// `DispatchQueue.main`. (In a Linux test process the main queue is drained, but not on the
    /// process's first thread: measured in an exit test's child, Swift 6.3.1 — so "the main queue"
    /// is a dimension here, "the main thread" is not.)
    case main

    package var description: String {
        switch self {
        case .serial: "a serial queue"
        case .concurrent: "a concurrent queue"
        case .global: "a global queue"
        case .main: "the main queue"
        }
    }

    /// A queue of this kind, which can tell whether code runs on it.
    package func make(label: String = "workbook.explored") -> ProbedQueue { ProbedQueue(self, label: label) }
}

/// A queue handed to learner code, and whether code runs on it.
package final class ProbedQueue: Sendable {
    package let kind: QueueKind
    package let queue: DispatchQueue
    /// One key per probe: two probes of the main queue do not mistake each other's marks.
    private let key = DispatchSpecificKey<UInt>()
    private let mark: UInt

    init(_ kind: QueueKind, label: String) {
        self.kind = kind
        mark = UInt(bitPattern: ObjectIdentifier(key).hashValue)
        switch kind {
        case .serial: queue = DispatchQueue(label: label)
        case .concurrent: queue = DispatchQueue(label: label, attributes: .concurrent)
        case .global: queue = .global()
        case .main: queue = .main
        }
        // A global queue takes no queue-specific data (libdispatch root queues); code on it is
        // told by its thread instead (see `onIt`).
        if kind != .global { queue.setSpecific(key: key, value: mark) }
    }

    /// Whether the calling code runs on this queue: `nil` for a global queue, which cannot say.
    package var isCurrent: Bool? {
        kind == .global ? nil : DispatchQueue.getSpecific(key: key) == mark
    }
}

/// Where a call into learner code comes from.
package enum CallSite: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A thread of the test's own.
    case thread
    /// A block on a serial queue of the test's.
    case serialQueue
    /// A block on a concurrent queue of the test's.
    case concurrentQueue
    /// A block on a global queue.
    case globalQueue
    /// A block on the main queue.
    case mainQueue

    package var description: String {
        switch self {
        case .thread: "a thread of its own"
        case .serialQueue: "a block on a serial queue"
        case .concurrentQueue: "a block on a concurrent queue"
        case .globalQueue: "a block on a global queue"
        case .mainQueue: "a block on the main queue"
        }
    }

    /// Runs `work` from this place, without waiting for it.
    package func start(_ work: @escaping @Sendable () -> Void) {
        switch self {
        case .thread: startThread(work)
        case .serialQueue: DispatchQueue(label: "workbook.call-site").async(execute: work)
        case .concurrentQueue: DispatchQueue(label: "workbook.call-site", attributes: .concurrent).async(execute: work)
        case .globalQueue: DispatchQueue.global().async(execute: work)
        case .mainQueue: DispatchQueue.main.async(execute: work)
        }
    }
}

/// The deadlines a timed call takes, in seconds from when it is made.
package enum Deadline: Sendable, Equatable, CustomStringConvertible {
    /// Already past (a second ago, or the clock's start).
    case past
    /// `.now()`.
    case now
    /// This many seconds ahead.
    case ahead(Double)
    /// `.distantFuture`.
    case distantFuture

    package var description: String {
        switch self {
        case .past: "a deadline already past"
        case .now: "the deadline .now()"
        case let .ahead(seconds): "a deadline \(formatSeconds(seconds)) ahead"
        case .distantFuture: "the deadline .distantFuture"
        }
    }

    /// The deadline, taken now.
    package var time: DispatchTime {
        let now = DispatchTime.now()
        switch self {
        case .past: return DispatchTime(uptimeNanoseconds: max(now.uptimeNanoseconds, 1_000_000_001) - 1_000_000_000)
        case .now: return now
        case let .ahead(seconds): return now + seconds
        case .distantFuture: return .distantFuture
        }
    }

    /// Seconds from now until it passes (`nil` for never).
    package var seconds: Double? {
        switch self {
        case .past, .now: 0
        case let .ahead(seconds): seconds
        case .distantFuture: nil
        }
    }
}

/// Explores scenarios inside an exit test's child (``runInChild(seconds:cutShort:_:)``): the
/// learner's sentence for the smallest failing scenario, or `nil` when every one held. `test` is
/// the test's filter, for the line that runs the scenario again.
package func exploreScenarios<Scenario: Sendable & CustomStringConvertible>(
    _ test: String,
    corners: [Scenario] = [],
    generate: (inout Seeded) -> Scenario,
    shrink: (Scenario) -> [Scenario],
    run: (Scenario) -> Violation?
) -> String? {
    let budget = Budget.current
    return explore(budget: budget, shrinkSeconds: Budget.shrinkSeconds, corners: corners, generate: generate, shrink: shrink, run: { scenario in
        // Said before it runs: a scenario that traps or hangs ends the child, and the parent then
        // names the scenario from the last of these lines (``lastScenario(in:)``).
        FileHandle.standardError.write(Data("\(scenarioLinePrefix)\(scenario)\n".utf8))
        if let log = ProcessInfo.processInfo.environment[Budget.logVariable], let file = FileHandle(forWritingAtPath: log) {
            file.seekToEndOfFile()
            file.write(Data("\(test)\t\(scenario)\n".utf8))
            try? file.close()
        }
        return run(scenario)
    }).map { finding in
        finding.violation.timedOut ? childTimedOut(finding.report(test: test)) : finding.report(test: test)
    }
}

/// A suite whose contract is explored in generated scenarios: the four parts
/// ``exploreScenarios(_:corners:generate:shrink:run:)`` takes, and the two sentences
/// ``judgeChild(_:_:ifItCrashed:ifItHung:sourceLocation:)`` says a failure with, as the suite's own
/// static members. Its explored test is then one call:
///
///     @Test("explored: …")
///     func explored() async {
///         await Self.explore()
///     }
///
/// Every explored test runs the one exit test in ``explore(sourceLocation:)``: the body is the same
/// for every suite, and the child learns which suite to explore from a value in the capture list.
/// (The suite's own explored test still has to be written in the suite: Swift Testing finds a test
/// by the `@Test` function that declares it, and `workbook check` runs a suite's tests by its name.)
package protocol ExploredContract: SendableMetatype {
    associatedtype Scenario: Sendable & CustomStringConvertible
    /// Scenarios run before any generated one; none unless the suite says.
    static var corners: [Scenario] { get }
    static func generate(_ random: inout Seeded) -> Scenario
    static func shrink(_ scenario: Scenario) -> [Scenario]
    static func run(_ scenario: Scenario) -> Violation?
    /// What the explored test does, as ``judgeChild(_:_:ifItCrashed:ifItHung:sourceLocation:)``'s
    /// `what`: "Exploring scenarios of runAll's contract".
    static var exploring: String { get }
    /// The likely cause of a trap while exploring, and where to look.
    static var ifItCrashed: String { get }
}

extension ExploredContract {
    package static var corners: [Scenario] { [] }

    /// The explored test's filter, for the line that runs a scenario again: "Exercise2_1Tests/explored".
    static var exploredTest: String { "\(Self.self)/explored" }

    /// The explored test: explores the contract's scenarios in a child process, and judges how the
    /// child ended (``judgeChild(_:_:ifItCrashed:ifItHung:sourceLocation:)``) at `sourceLocation`,
    /// the suite's call.
    package static func explore(sourceLocation: SourceLocation = #_sourceLocation) async {
        let result = await exploreInChild(Self.self, sourceLocation: sourceLocation)
        judgeChild(result, exploring, ifItCrashed: ifItCrashed, sourceLocation: sourceLocation)
    }
}

/// The exit test of every explored test.
///
/// It is not a method of `ExploredContract`'s extension: that is a generic context, where the macro
/// does not expand ("Cannot call macro '#expect(processExitsWith:)' within generic function …",
/// swift-testing 6.3.1, Sources/TestingMacros/ConditionMacro.swift, `_diagnoseIssues`). Here the
/// contract is a value instead, and the child finds it again by the name the parent captures: the
/// Swift runtime's round trip of a type's mangled name, `_mangledTypeName` and `_typeByName` (the
/// standard library's test/Runtime/demangleToMetadata.swift, "Round-trip with _mangledTypeName and
/// _typeByName"). The child runs the same test code as its parent, so the suite's type is there.
private func exploreInChild(_ contract: any ExploredContract.Type, sourceLocation: SourceLocation) async -> ExitTest.Result? {
    await #expect(processExitsWith: .failure, observing: childOutput, childEnds, sourceLocation: sourceLocation) { [suite = (_mangledTypeName(contract) ?? "") as String, cutShort = AfterATimeOut.forChild as ChildCutShort] in
        guard let contract = _typeByName(suite) as? any ExploredContract.Type else {
            leaveChild(ChildExit.wrong, "the test's child could not find the explored suite by its mangled name \"\(suite)\"")
        }
        exploreInChild(contract, cutShort: cutShort)
    }
}

/// A scenario type that several exercises explore, each in its own variant of it (1.1's latch
/// without Bools and 1.2's with them, 4.1's one key and 4.3's three): corners, generated scenarios
/// and shrinking come from the type.
package protocol VariedScenario: Sendable, CustomStringConvertible {
    associatedtype Variant: Sendable
    static func corners(_ variant: Variant) -> [Self]
    static func generate(_ random: inout Seeded, _ variant: Variant) -> Self
    static func shrink(_ scenario: Self) -> [Self]
}

/// A contract explored over its variant of a shared scenario type.
package protocol ExploredVariant: ExploredContract where Scenario: VariedScenario {
    static var variant: Scenario.Variant { get }
}

extension ExploredVariant {
    package static var corners: [Scenario] { Scenario.corners(variant) }
    package static func generate(_ random: inout Seeded) -> Scenario { Scenario.generate(&random, variant) }
    package static func shrink(_ scenario: Scenario) -> [Scenario] { Scenario.shrink(scenario) }
}

/// What the explored tests' child does: explores `Contract`'s scenarios, bounded by
/// ``exploringChildSeconds``.
func exploreInChild<Contract: ExploredContract>(_ contract: Contract.Type, cutShort: ChildCutShort) -> Never {
    runInChild(seconds: exploringChildSeconds, cutShort: cutShort) {
        exploreScenarios(Contract.exploredTest, corners: Contract.corners, generate: Contract.generate, shrink: Contract.shrink, run: Contract.run)
    }
}

/// What opens the line a child writes to standard error before each scenario it runs.
let scenarioLinePrefix = "workbook-scenario: "

/// The scenario a child was running when it ended, from its standard error; `nil` when it ran none.
func lastScenario(in standardError: [UInt8]) -> String? {
    String(decoding: standardError, as: UTF8.self).split(separator: "\n")
        .last { $0.hasPrefix(scenarioLinePrefix) }
        .map { String($0.dropFirst(scenarioLinePrefix.count)) }
}


/// The bound for a child that explores: the budget's time, shrinking, and a margin for the last
/// scenario to finish.
package var exploringChildSeconds: Double { Budget.current.longestTest }

/// A gate that, once opened, lets every waiter through, now and later (a `Signal` lets one through
/// per fire). Opening it orders what the opener did before it ahead of what each waiter does after.
package final class Gate: Sendable {
    private let group = DispatchGroup()

    package init() { group.enter() }

    /// Opens the gate; once only.
    package func open() { group.leave() }

    /// Waits at most `seconds` for the gate to open; `true` when it did.
    package func passes(within seconds: Double) -> Bool { group.wait(timeout: .now() + seconds) == .success }
}

/// The threads currently inside a call, by `pthread_t`: code that finds its own thread here runs
/// inside that call (a block "submitted" that in fact ran at once, on the caller's thread).
package final class ThreadSet: @unchecked Sendable {
    private let lock = NSLock()
    private var threads: [pthread_t] = []

    package init() {}

    package func insert(_ thread: pthread_t) { lock.withLock { threads.append(thread) } }
    package func remove(_ thread: pthread_t) { lock.withLock { threads.removeAll { pthread_equal($0, thread) != 0 } } }
    package func contains(_ thread: pthread_t) -> Bool { lock.withLock { threads.contains { pthread_equal($0, thread) != 0 } } }
}

/// Plain memory one thread writes and another reads: only what the code under test orders makes
/// the read safe, and the Thread Sanitizer checks that it does.
package final class Box: @unchecked Sendable {
    package var value: Int
    package init(_ value: Int) { self.value = value }
}

/// The smaller variants one shrinking step proposes for a scenario: each change is made to a copy of
/// it, and the copy is kept when the change did something and the copy is still a scenario (`valid`).
///
/// ```swift
/// var smaller = Smaller(than: scenario, valid: { !$0.callers.isEmpty })
/// for index in scenario.callers.indices { smaller.with { $0.callers.remove(at: index) } }
/// return smaller.candidates
/// ```
package struct Smaller<Scenario: Equatable> {
    package private(set) var candidates: [Scenario] = []
    private let original: Scenario
    private let valid: (Scenario) -> Bool

    package init(than original: Scenario, valid: @escaping (Scenario) -> Bool = { _ in true }) {
        self.original = original
        self.valid = valid
    }

    /// Proposes `original` changed by `change`.
    package mutating func with(_ change: (inout Scenario) -> Void) {
        var copy = original
        change(&copy)
        if copy != original, valid(copy) { candidates.append(copy) }
    }
}

import Chapter4SerialQueues
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport
import WorkbookWire

// 4.4's contract, executable: a scenario mixes what the contract allows — capacities from below 1 to
// far more than is ever recorded; record(_:) and flush() called from threads and from blocks on
// every kind of queue (the main queue too), several callers at once; a write that does nothing
// else, that records or flushes itself, that waits for another thread that records or flushes, or
// that holds on while the others go on recording — re-entrance while others wait. One run records
// every call and every batch, and the record is held to each clause of the header.
extension Exercise4_4Tests: ExploredContract {
    static let exploring = "Exploring scenarios of the log's contract"
    static var ifItCrashed: String { syncInsideSync }

    enum Call: String, Sendable, Equatable { case record, flush }

    enum Write: String, CaseIterable, Sendable {
        /// Keeps the batch, nothing more.
        case keeps
        /// Records one more event into the log (from a batch with an event of a caller in it).
        case recordsItself
        /// Flushes the log.
        case flushesItself
        /// Waits for a thread of its own that records one more event and flushes.
        case waitsForAnotherThread
        /// Holds on for 30 ms while the other callers go on.
        case holdsOn
    }

    struct Scenario: CallersScenario, Sendable, CustomStringConvertible {
        typealias Caller = ScenarioCaller<Call>

        var capacity: Int
        var write: Write
        var callers: [Caller]

        var description: String {
            var parts = ["a log of capacity \(capacity) whose write \(Self.phrase(write))"]
            for caller in callers {
                let records = caller.calls.filter { $0 == .record }.count
                let flushes = caller.calls.count - records
                parts.append("\(caller.site) calls record(_:) \(records) time\(records == 1 ? "" : "s")"
                    + (flushes > 0 ? " and flush() \(flushes) time\(flushes == 1 ? "" : "s") among them" : ""))
            }
            return parts.joined(separator: "; ")
        }

        static func phrase(_ write: Write) -> String {
            switch write {
            case .keeps: "keeps the batch"
            case .recordsItself: "records one more event into the log"
            case .flushesItself: "flushes the log"
            case .waitsForAnotherThread: "waits for another thread that records into the log and flushes it"
            case .holdsOn: "holds on for 30 ms while the others go on"
            }
        }
    }

    static func generate(_ random: inout Seeded) -> Scenario {
        let capacity = random.pick([-3, 0, 1, 1, 2, 3, 5, 1_000])
        let callers = Scenario.Caller.generate(&random, counts: [1, 3, 8, 20]) { random in random.chance(0.15) ? .flush : .record }
        return Scenario(capacity: capacity, write: random.pick(Write.allCases), callers: callers)
    }

    /// Scenarios seen first: a write that uses the log while other threads wait for it, at the
    /// smallest capacities.
    static let corners: [Scenario] = [Write.recordsItself, .waitsForAnotherThread, .holdsOn].flatMap { write in
        [0, 2].map { capacity in
            Scenario(capacity: capacity, write: write, callers: [
                .init(site: .thread, calls: Array(repeating: .record, count: 6)),
                .init(site: .mainQueue, calls: [.record, .flush, .record, .record]),
                .init(site: .concurrentQueue, calls: Array(repeating: .record, count: 5)),
            ])
        }
    }

    static func shrink(_ scenario: Scenario) -> [Scenario] {
        var smaller = Smaller(than: scenario, valid: { !$0.callers.isEmpty })
        smaller.withoutEachCaller(of: scenario)
        smaller.with { $0.write = .keeps }
        for capacity in [1, 2, 3] where capacity < scenario.capacity { smaller.with { $0.capacity = capacity } }
        smaller.withSimplerCallers(of: scenario)
        return smaller.candidates
    }

    /// What one run saw, under one lock: the batches `write` got, what each flush returned, and
    /// which call each thread is inside.
    final class Record: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var batches: [[String]] = []
        private(set) var flushed: [[String]] = []
        private(set) var problems: [Violation] = []
        private(set) var slowest = 0.0
        private var inside: [(thread: pthread_t, call: Call)] = []

        func locked<T>(_ body: (Record) -> T) -> T { lock.withLock { body(self) } }

        func enter(_ call: Call) { lock.withLock { inside.append((pthread_self(), call)) } }
        func leave(took: Double) {
            lock.withLock {
                let me = pthread_self()
                if let last = inside.lastIndex(where: { pthread_equal($0.thread, me) != 0 }) { inside.remove(at: last) }
                slowest = max(slowest, took)
            }
        }
        /// The innermost call the calling thread is in, if any.
        var current: Call? {
            lock.withLock { inside.last { pthread_equal($0.thread, pthread_self()) != 0 }?.call }
        }
        func wrote(_ batch: [String]) { lock.withLock { batches.append(batch) } }
        func flushed(_ events: [String]) { lock.withLock { flushed.append(events) } }
        func problem(_ violation: Violation) { lock.withLock { problems.append(violation) } }
        /// The events `write` added, each named once.
        private(set) var extras: [String] = []
        func nextExtra() -> String { lock.withLock { extras.append("w\(extras.count)"); return extras[extras.count - 1] } }
    }

    /// One run of `scenario`, held to the contract.
    static func run(_ scenario: Scenario) -> Violation? {
        let record = Record()
        let holder = Tally<EventLog>()
        let log: @Sendable () -> EventLog = { holder.all[0] }

        @Sendable func call(_ call: Call, _ event: String) {
            record.enter(call)
            let start = DispatchTime.now().uptimeNanoseconds
            switch call {
            case .record: log().record(event)
            case .flush: record.flushed(log().flush())
            }
            record.leave(took: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }

        let write: @Sendable ([String]) -> Void = { batch in
            switch record.current {
            case .record?: break
            case .flush?:
                record.problem(Violation(clause: "`flush()` takes out everything buffered and returns it; it never calls `write`.",
                                         observed: "write was called from inside a flush() call."))
            case nil:
                record.problem(Violation(clause: "When the event a `record` adds brings the buffer to `capacity`, it calls `write` with them — on the caller's thread, before `record` returns.",
                                         observed: "write was called on a thread that was not inside a record(_:) call."))
            }
            record.wrote(batch)
            // Only a batch with a caller's event in it uses the log: the events write adds ("w…") end it.
            guard batch.contains(where: { !$0.hasPrefix("w") }) else { return }
            switch scenario.write {
            case .keeps: break
            case .recordsItself:
                call(.record, record.nextExtra())
            case .flushesItself: call(.flush, "")
            case .waitsForAnotherThread:
                let more = record.nextExtra()
                let done = Signal()
                startThread {
                    call(.record, more)
                    call(.flush, "")
                    done.fire()
                }
                if !done.happens(within: 1) {
                    record.problem(Violation(clause: "`write` is called after the log has let go of its queue: `write` may call `record` or `flush`, itself or by waiting for another thread that does.",
                                             observed: "write waited 1 s for another thread's record(_:) and flush(), which did not return.", timedOut: true))
                }
            case .holdsOn: usleep(30_000)
            }
        }
        holder.append(EventLog(capacity: scenario.capacity, write: write))

        let callersDone = Signal()
        for (index, caller) in scenario.callers.enumerated() {
            let calls = caller.calls
            caller.site.start {
                for (number, kind) in calls.enumerated() { call(kind, "\(index)-\(number)") }
                callersDone.fire()
            }
        }
        for _ in scenario.callers where !callersDone.happens(within: 3) {
            return Violation(clause: "`record(_:)` and `flush()` may be called from any thread, at any time, also at once. Nothing traps or hangs.",
                             observed: "a caller's calls did not all return within 3 s.", timedOut: true)
        }
        // What is left in the log, taken out the way the contract allows.
        guard let rest = within(2, { Unchecked(log().flush()) }) else {
            return Violation(clause: "Nothing traps or hangs.", observed: "a last flush() did not return within 2 s.", timedOut: true)
        }

        return record.locked { seen -> Violation? in
            if let problem = seen.problems.first { return problem }
            let capacity = max(scenario.capacity, 1)
            if let wrong = seen.batches.first(where: { $0.count != capacity }) {
                return Violation(clause: "Every batch holds exactly `capacity` events (a capacity below 1 counts as 1).",
                                 observed: "write got a batch of \(wrong.count) event\(wrong.count == 1 ? "" : "s") on a log of capacity \(scenario.capacity).")
            }
            for out in seen.batches + seen.flushed + [rest.value] {
                var last: [Substring: Int] = [:]
                for event in out {
                    let parts = event.split(separator: "-")
                    guard parts.count == 2, let number = Int(parts[1]) else { continue }
                    if let before = last[parts[0]], before > number {
                        return Violation(clause: "Batches and flushes hold their events oldest first.",
                                         observed: "one caller's events came out of order in one batch or flush.")
                    }
                    last[parts[0]] = number
                }
            }
            let recorded = scenario.callers.enumerated().flatMap { index, caller in
                caller.calls.enumerated().filter { $0.element == .record }.map { "\(index)-\($0.offset)" }
            } + seen.extras
            let out = (seen.batches + seen.flushed + [rest.value]).flatMap { $0 }
            if out.sorted() != recorded.sorted() {
                let counts = Dictionary(grouping: out, by: { $0 }).mapValues(\.count)
                let lost = recorded.filter { counts[$0] == nil }.count
                let twice = counts.filter { $0.value > 1 }.count
                return Violation(clause: "From many threads at once: every event comes back exactly once, in a batch or a flush.",
                                 observed: "of \(recorded.count) events recorded, \(lost) never came back and \(twice) came back more than once.")
            }
            return nil
        }
    }

    @Test("explored: capacities below 1 to 1 000, callers on threads and every kind of queue (main too), record and flush mixed, a write that records, flushes, waits for another thread or holds on while others wait")
    func explored() async {
        await Self.explore()
    }
}

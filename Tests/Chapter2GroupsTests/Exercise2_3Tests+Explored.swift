import Chapter2Groups
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport
import WorkbookWire

// 2.3's contract, executable: a scenario mixes what the contract allows — 0, 1, 2 or 5 sources, each
// reporting 0, 1 or 20 URLs (or failing) before `enumerate` returns, from another thread, later, from
// several threads at once, from a block on the queue, or held and let go together with every other
// held source; every kind of queue handed over (a global one and the main queue too); one or two
// loads on one library, each called from a thread, a global queue, the main queue or the very queue
// it hands over; completions that start another load and wait for it — all while the library's own
// queues are kept busy (paused, as `QueueHold` does, until every source has finished and `queue` has
// run what was sent to it by then). One run records what happened, and the record is held to each
// clause of the header.
extension Exercise2_3Tests: ExploredContract {
    static let exploring = "Exploring scenarios of VideoLibrary.load's contract"
    static let ifItCrashed = "libdispatch stops a program that calls `sync` on the serial queue already running the caller, and one that calls `leave()` on a group more often than `enter()`: count what reaches `leave()` — a failing source calls `done` once, and nothing else."

    enum Report: String, CaseIterable, Sendable {
        case beforeReturning, anotherThread, later, severalThreads, throughTheQueue, held

        var phrase: String {
            switch self {
            case .beforeReturning: "before enumerate returns"
            case .anotherThread: "from another thread"
            case .later: "20 ms later"
            case .severalThreads: "from 3 threads at once"
            case .throughTheQueue: "from a block it sends to the queue"
            case .held: "held, then at the same moment as every other held source"
            }
        }
    }

    typealias Site = ExploredCaller

    struct Source: Sendable, Equatable {
        var report: Report
        /// How many URLs it finds: 0, 1 or many.
        var count: Int
        /// It finds nothing and calls `done` with an error.
        var fails: Bool

        var phrase: String { fails ? "failing \(report.phrase)" : "\(count) URL\(count == 1 ? "" : "s") \(report.phrase)" }
    }

    struct Load: Sendable, Equatable {
        var site: Site
        /// Its completion starts another load, from a thread of its own, and waits for that call.
        var loadsAgain: Bool
    }

    struct Scenario: Sendable, Equatable, CustomStringConvertible {
        var queue: QueueKind
        var sources: [Source]
        var loads: [Load]

        var description: String {
            let list = sources.isEmpty ? "no sources" : "\(sources.count) source\(sources.count == 1 ? "" : "s") (" + sources.map(\.phrase).joined(separator: "; ") + ")"
            let calls = loads.map { "from \($0.site.phrase)" + ($0.loadsAgain ? ", whose completion loads again and waits for that load" : "") }
            return "a library of \(list); \(loads.count == 1 ? "one load" : "\(loads.count) loads at once") handed \(queue), called "
                + calls.joined(separator: " and ")
        }

        /// What every load of this library must deliver.
        var urls: [URL] {
            sources.enumerated().flatMap { index, source in source.fails ? [] : (0..<source.count).map { video(index, $0) } }
        }
    }

    static func generate(_ random: inout Seeded) -> Scenario {
        Scenario(queue: random.pick(QueueKind.allCases),
                 sources: (0..<random.pick([0, 1, 2, 2, 5])).map { _ in
                     Source(report: random.pick(Report.allCases), count: random.pick([0, 1, 20, 20]), fails: random.chance(0.15))
                 },
                 loads: (0..<random.pick([1, 1, 2])).map { _ in Load(site: random.pick(Site.allCases), loadsAgain: random.chance(0.2)) })
    }

    /// The edges, first: no sources, from the queue itself; one source of many URLs before returning;
    /// a source of no URLs and a failing one; two held sources let go together, on the main queue.
    static let corners = [
        Scenario(queue: .serial, sources: [], loads: [Load(site: .theQueueItself, loadsAgain: false)]),
        Scenario(queue: .serial, sources: [Source(report: .beforeReturning, count: 20, fails: false)], loads: [Load(site: .thread, loadsAgain: false)]),
        Scenario(queue: .concurrent, sources: [Source(report: .anotherThread, count: 0, fails: false), Source(report: .later, count: 1, fails: true)],
                 loads: [Load(site: .globalQueue, loadsAgain: false)]),
        Scenario(queue: .main, sources: [Source(report: .held, count: 20, fails: false), Source(report: .severalThreads, count: 20, fails: false)],
                 loads: [Load(site: .mainQueue, loadsAgain: true)]),
    ]

    static func shrink(_ scenario: Scenario) -> [Scenario] {
        var smaller = Smaller(than: scenario)
        for index in scenario.loads.indices where scenario.loads.count > 1 { smaller.with { $0.loads.remove(at: index) } }
        for index in scenario.sources.indices.reversed() { smaller.with { $0.sources.remove(at: index) } }
        for index in scenario.loads.indices {
            smaller.with { $0.loads[index].loadsAgain = false }
            smaller.with { $0.loads[index].site = .thread }
        }
        for index in scenario.sources.indices {
            smaller.with { $0.sources[index].report = .beforeReturning }
            smaller.with { $0.sources[index].fails = false }
            if scenario.sources[index].count > 1 { smaller.with { $0.sources[index].count = 1 } }
        }
        smaller.with { $0.queue = .serial }
        return smaller.candidates
    }

    /// The test's sources: each reports its scenario's way, and records which load asked it (the
    /// load whose call is running on the asking thread), what it reported, and when it was done.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var loadOnThread: [(thread: pthread_t, load: Int)] = []
        private var enumerated: [Int] = []
        private var done: [Int] = []

        func calling(_ load: Int, _ body: () -> Void) {
            let me = pthread_self()
            lock.withLock { loadOnThread.append((me, load)) }
            body()
            lock.withLock { loadOnThread.removeAll { pthread_equal($0.thread, me) != 0 } }
        }

        /// The load asking now, from the thread it was called on; `nil` when enumerate is called
        /// from somewhere else.
        func asking() -> Int? {
            let me = pthread_self()
            return lock.withLock {
                let load = loadOnThread.last { pthread_equal($0.thread, me) != 0 }?.load
                if let load { enumerated.append(load) }
                return load
            }
        }

        func finished(_ load: Int) { lock.withLock { done.append(load) } }
        func enumerations(of load: Int) -> Int { lock.withLock { enumerated.filter { $0 == load }.count } }
        func dones(of load: Int) -> Int { lock.withLock { done.filter { $0 == load }.count } }
        var allDones: Int { lock.withLock { done.count } }
    }

    struct TestSource: AssetSource {
        let index: Int
        let source: Source
        let probe: ProbedQueue
        let release: Gate
        let recorder: Recorder
        /// What each source writes just before calling `done`, per load: plain memory only the
        /// library's ordering covers when completion reads it.
        let written: [[Box]]

        func enumerate(_ found: @escaping (URL) -> Void, done: @escaping (Error?) -> Void) {
            let load = recorder.asking() ?? -1
            let (found, done) = (Unchecked(found), Unchecked(done))
            let (recorder, written, index, fails) = (recorder, written, index, source.fails)
            let urls = fails ? [] : (0..<source.count).map { video(index, $0) }
            let finish: @Sendable () -> Void = {
                if written.indices.contains(load) { written[load][index].value = 1 }
                recorder.finished(load)
                done.value(fails ? SourceFailed() : nil)
            }
            let report: @Sendable () -> Void = {
                for url in urls { found.value(url) }
                finish()
            }
            // A load started from a completion, which waits for it, is reported to from threads of
            // the source's own: not through `queue` (the completion may be blocking it) nor through
            // a global queue (completions waiting on a concurrent or global queue take its few
            // threads on a 2-core Linux machine, and the test would be waiting for itself).
            let nested = load >= 100 && (source.report == .throughTheQueue || source.report == .later)
            switch nested ? .anotherThread : source.report {
            case .beforeReturning: report()
            case .anotherThread: startThread(report)
            case .later: DispatchQueue.global().asyncAfter(deadline: .now() + 0.02, execute: report)
            case .throughTheQueue: probe.queue.async(execute: report)
            // Longer than load is given to return: a load that waits for its sources never does.
            case .held: startThread { [release] in _ = release.passes(within: 2); report() }
            case .severalThreads:
                // The URLs split among 3 threads that report at once; done after the last of them.
                let reporters = DispatchGroup()
                for part in 0..<3 {
                    reporters.enter()
                    startThread {
                        for (i, url) in urls.enumerated() where i % 3 == part { found.value(url) }
                        reporters.leave()
                    }
                }
                startThread {
                    // Bounded: a found that blocks for good still lets this source say it is done
                    // (after longer than a found held up by the paused queue takes).
                    _ = reporters.wait(timeout: .now() + 2)
                    finish()
                }
            }
        }
    }

    static func run(_ scenario: Scenario) -> Violation? {
        let probe = scenario.queue.make(label: "workbook.explored-load")
        let release = Gate(), recorder = Recorder()
        let written = scenario.loads.map { _ in scenario.sources.map { _ in Box(0) } }
        let library = Unchecked(VideoLibrary(sources: scenario.sources.enumerated().map {
            TestSource(index: $0.offset, source: $0.element, probe: probe, release: release, recorder: recorder, written: written)
        }))
        let insideLoad = ThreadSet()
        let completions = Tally<(load: Int, onQueue: Bool?, inside: Bool, urls: [URL], dones: Int, sawAll: Bool)>()
        let returns = Tally<(load: Int, asked: Int)>()
        let again = Tally<(load: Int, returned: Bool, completed: Bool)>()
        let otherQueue = DispatchQueue(label: "workbook.explored-load.again")

        let busy = QueueHold(queuesOf: library.value, seconds: 1)
        let returned = Tally<Int>(), allReturned = Signal()
        for (number, load) in scenario.loads.enumerated() {
            let call: @Sendable () -> Void = {
                let me = pthread_self()
                insideLoad.insert(me)
                recorder.calling(number) {
                    library.value.load(queue: probe.queue) { urls in
                        let sawAll = written[number].allSatisfy { $0.value == 1 }
                        completions.append((number, probe.isCurrent, insideLoad.contains(pthread_self()), urls, recorder.dones(of: number), sawAll))
                        guard load.loadsAgain else { return }
                        // From inside completion: another load, on a thread of its own, and wait (at
                        // most 0.5 s) for that call to return, then (0.7 s) for its completion (on a queue of
                        // the test's) — as code that reloads on demand might.
                        let nestedReturned = Signal(), nestedCompleted = Signal()
                        startThread {
                            recorder.calling(number + 100) {
                                library.value.load(queue: otherQueue) { urls in
                                    completions.append((number + 100, nil, false, urls, recorder.dones(of: number + 100), true))
                                    nestedCompleted.fire()
                                }
                            }
                            nestedReturned.fire()
                        }
                        let returned = nestedReturned.happens(within: 0.5)
                        again.append((number, returned, returned && nestedCompleted.happens(within: 0.7)))
                    }
                }
                insideLoad.remove(me)
                returns.append((number, recorder.enumerations(of: number)))
                returned.append(number)
                allReturned.fire()
            }
            load.site.start(call, handedQueue: probe.queue)
        }
        let callsDue = Date().addingTimeInterval(1.5)
        for _ in scenario.loads where !allReturned.happens(within: max(0, callsDue.timeIntervalSinceNow)) {
            release.open()
            busy.release()
            return Violation(clause: "load returns at once: it asks every source to enumerate and waits for none of them.",
                             observed: "\(returned.count) of \(scenario.loads.count) load calls had returned 1.5 s after they were made.", timedOut: true)
        }
        // (No bound tighter than 1.5 s on each call: a library whose `found` waits for its own
        // queue — paused here for 1 s at most — is slowed down, and still returns at once in the
        // contract's sense; one that waits for a held source never returns within the bound.)
        release.open()
        if let short = returns.all.first(where: { $0.asked != scenario.sources.count }) {
            busy.release()
            return Violation(clause: "load returns at once: it asks every source to enumerate.",
                             observed: "a load call returned having asked \(short.asked) of its \(scenario.sources.count) sources to enumerate.")
        }

        // The library's queues stay busy until every source has finished and `queue` has run what
        // was sent to it by then (at most 0.6 s: a library that waits on its own queue is slowed
        // down, not hung).
        let finished = Date().addingTimeInterval(0.6)
        while recorder.allDones < scenario.sources.count * scenario.loads.count && Date() < finished { usleep(1_000) }
        switch scenario.queue {
        case .global: usleep(20_000)
        default:
            let ran = Signal()
            probe.queue.async(flags: .barrier) { ran.fire() }
            _ = ran.happens(within: max(0.05, finished.timeIntervalSinceNow))
        }
        busy.release()

        let expectedCount = scenario.loads.count + scenario.loads.filter(\.loadsAgain).count
        let deadline = Date().addingTimeInterval(1.5)
        while (completions.count < expectedCount || again.count < scenario.loads.filter(\.loadsAgain).count) && Date() < deadline { usleep(1_000) }
        // A moment more, so that a second completion shows.
        usleep(30_000)

        let expected = scenario.urls.map(\.path).sorted()
        func urlProblem(_ urls: [URL]) -> String? {
            let got = urls.map(\.path)
            let twice = Dictionary(grouping: got, by: { $0 }).values.filter { $0.count > 1 }.count
            let missing = Set(expected).subtracting(got).count
            let foreign = Set(got).subtracting(expected).count
            if missing == 0 && twice == 0 && foreign == 0 { return nil }
            return "a list of \(got.count) URLs where \(expected.count) were found: "
                + [missing > 0 ? "\(missing) missing" : nil, twice > 0 ? "\(twice) there more than once" : nil,
                   foreign > 0 ? "\(foreign) no source of this load found" : nil].compactMap { $0 }.joined(separator: ", ")
        }

        let seen = completions.all
        for (number, load) in scenario.loads.enumerated() {
            let mine = seen.filter { $0.load == number }
            guard let completion = mine.first else {
                return Violation(clause: "`completion` runs exactly once, on `queue`, after every source has called `done`.",
                                 observed: "no completion came within 1.5 s of every source having called done and the library's queue going on.", timedOut: true)
            }
            if mine.count > 1 {
                return Violation(clause: "`completion` runs exactly once.", observed: "a load's completion ran \(mine.count) times.")
            }
            if completion.inside {
                return Violation(clause: "`completion` is always submitted to `queue`, never called from inside load\(scenario.sources.isEmpty ? ": with no sources it comes at once, on `queue`, with []" : "").",
                                 observed: "completion ran inside the load call itself, on its caller's thread.")
            }
            if completion.onQueue == false {
                return Violation(clause: "`completion` runs exactly once, on `queue`.", observed: "completion ran somewhere other than \(scenario.queue).")
            }
            if completion.dones < scenario.sources.count {
                return Violation(clause: "`completion` runs … after every source has called `done`.",
                                 observed: "completion ran when \(completion.dones) of \(scenario.sources.count) sources had called done.")
            }
            if let problem = urlProblem(completion.urls) {
                return Violation(clause: "`completion` runs … with every URL that every source found (in any order, none twice) — even while the library's own queue is busy"
                                    + (scenario.loads.count > 1 ? "; every load has its own list." : "."),
                                 observed: "completion got \(problem).")
            }
            if !completion.sawAll {
                return Violation(clause: "`completion` runs … after every source has called `done`.",
                                 observed: "completion did not see what a source wrote before calling done.")
            }
            if load.loadsAgain {
                guard let waited = again.all.first(where: { $0.load == number }) else {
                    return Violation(clause: "`completion` is called with nothing of the library held (no lock, not on its queue): it may start another load, from any thread, and wait for it.",
                                     observed: "a completion that started another load and waited for it had not finished 1.5 s after every source had.", timedOut: true)
                }
                if !waited.returned {
                    return Violation(clause: "`completion` is called with nothing of the library held (no lock, not on its queue): it may start another load, from any thread, and wait for it.",
                                     observed: "a load started from another thread by a completion, which waited for it, had not returned 0.5 s later.", timedOut: true)
                }
                if !waited.completed {
                    return Violation(clause: "`completion` is called with nothing of the library held (no lock, not on its queue): it may start another load, from any thread, and wait for it.",
                                     observed: "a load started from another thread by a completion, which waited for it, had not completed 0.7 s after it returned.", timedOut: true)
                }
                let nested = seen.filter { $0.load == number + 100 }
                if nested.count != 1 {
                    return Violation(clause: "`completion` is called with nothing of the library held: it may start another load.",
                                     observed: "a load started from inside a completion completed \(nested.count) times.", timedOut: nested.isEmpty)
                }
                if let problem = urlProblem(nested[0].urls) {
                    return Violation(clause: "Every load has its own list: loads from any threads, overlapping or not, do not mix their URLs.",
                                     observed: "a load started from inside a completion got \(problem).")
                }
            }
        }
        return nil
    }

    @Test("explored: 0 to 5 sources of 0, 1 or 20 URLs or failing, reporting every way (several threads at once, held together), every kind of queue (global and main too), one or two loads from a thread, a global queue, the main queue or the queue itself, completions that load again, the library's queue busy")
    func explored() async {
        await Self.explore()
    }
}

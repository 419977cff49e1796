import Chapter3Semaphores
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport
import WorkbookWire

// 3.3's contract, executable: a scenario mixes what the contract allows — limits from 1 to 16, up to
// 50 jobs, run(_:) called from threads and from blocks on every kind of queue (the main queue too),
// several callers at once, jobs that call done() before they return, from another thread, after a
// while, or held until many are running — released together, from their threads at the same moment —
// and jobs that call run(_:) themselves; one run records what happened, and the record is held to
// each clause of the header.
extension Exercise3_3Tests: ExploredCallers {
    static let exploring = "Exploring scenarios of the limiter's contract"
    static var ifItCrashed: String { syncOntoOwnQueue }
    static let returnsAtOnce = "`run(_:)` may be called from any thread and returns at once, even when every slot is taken."
    static let call = "run(_:)"

    enum Done: String, CaseIterable, Sendable {
        /// done() before the job returns, on the thread that started it.
        case beforeReturning
        /// done() from a thread of its own, at once.
        case anotherThread
        /// done() from a global queue 20 ms later.
        case later
        /// Held until the scenario lets every held job go at once; done() from the job's own thread.
        case held
    }

    struct Job: Sendable, Equatable {
        var done: Done
        /// The job calls run(_:) with one more job before it calls done().
        var runsAnother: Bool
    }

    struct Scenario: Sendable, Equatable, CustomStringConvertible {
        var maxConcurrent: Int
        /// Each caller's place and the jobs it hands to run(_:), in order.
        var callers: [(site: CallSite, jobs: [Job])]

        static func == (a: Scenario, b: Scenario) -> Bool {
            a.maxConcurrent == b.maxConcurrent && a.callers.count == b.callers.count
                && zip(a.callers, b.callers).allSatisfy { $0.site == $1.site && $0.jobs == $1.jobs }
        }

        var jobs: [Job] { callers.flatMap(\.jobs) }
        var held: Int { jobs.filter { $0.done == .held }.count }

        var description: String {
            var parts = ["a limiter of \(maxConcurrent)"]
            for caller in callers {
                let kinds = Dictionary(grouping: caller.jobs, by: \.done).sorted { $0.key.rawValue < $1.key.rawValue }
                    .map { "\($0.value.count) \(Self.phrase($0.key))" }.joined(separator: ", ")
                let more = caller.jobs.filter(\.runsAnother).count
                parts.append("\(caller.site) runs \(caller.jobs.count) job\(caller.jobs.count == 1 ? "" : "s") (\(kinds))"
                    + (more > 0 ? ", \(more) of which call run(_:) with one more job" : ""))
            }
            return parts.joined(separator: "; ")
        }

        static func phrase(_ done: Done) -> String {
            switch done {
            case .beforeReturning: "calling done() before they return"
            case .anotherThread: "calling done() from another thread"
            case .later: "calling done() 20 ms later"
            case .held: "held until many run, then calling done() all at the same moment"
            }
        }
    }

    static func generate(_ random: inout Seeded) -> Scenario {
        let limit = random.pick([1, 1, 2, 2, 3, 5, 16])
        let callers = (0..<random.pick([1, 1, 2, 3])).map { _ in
            (site: random.pick(CallSite.allCases),
             jobs: (0..<random.pick([0, 1, 2, 4, limit + 1, 2 * limit + 2])).map { _ in
                 Job(done: random.pick(Done.allCases), runsAnother: random.chance(0.1))
             })
        }
        return Scenario(maxConcurrent: limit, callers: callers)
    }

    static func shrink(_ scenario: Scenario) -> [Scenario] {
        var smaller = Smaller(than: scenario)
        for index in scenario.callers.indices { smaller.with { $0.callers.remove(at: index) } }
        for limit in [1, 2, 3] where limit < scenario.maxConcurrent { smaller.with { $0.maxConcurrent = limit } }
        for caller in scenario.callers.indices {
            for job in scenario.callers[caller].jobs.indices.reversed() { smaller.with { $0.callers[caller].jobs.remove(at: job) } }
            if scenario.callers[caller].site != .thread { smaller.with { $0.callers[caller].site = .thread } }
            for job in scenario.callers[caller].jobs.indices {
                smaller.with { $0.callers[caller].jobs[job].runsAnother = false }
                smaller.with { $0.callers[caller].jobs[job].done = .beforeReturning }
            }
        }
        return smaller.candidates
    }

    /// One run of `scenario`, held to the contract.
    static func run(_ scenario: Scenario) -> Violation? {
        let limit = scenario.maxConcurrent
        guard let made = within(2, { Unchecked(keptForever(DownloadLimiter(maxConcurrent: limit))) }) else {
            return Violation(clause: "Nothing traps or hangs.", observed: "DownloadLimiter(maxConcurrent: \(limit)) did not return within 2 s.", timedOut: true)
        }
        let limiter = made
        let running = ConcurrencyMeter()
        let starts = Tally<(caller: Int, job: Int)>()
        let dones = Tally<Int>()
        let startedInsideRun = Tally<Int>()
        let slowRuns = Tally<Double>()
        let insideRun = ThreadSet()
        let release = Gate()
        let extra = Tally<Int>()

        @Sendable func job(_ caller: Int, _ index: Int, _ spec: Job) -> (@escaping () -> Void) -> Void {
            { handed in
                let done = Unchecked(handed)
                if insideRun.contains(pthread_self()) { startedInsideRun.append(index) }
                running.enter()
                starts.append((caller, index))
                if spec.runsAnother {
                    limiter.value.run { innerDone in
                        extra.append(1)
                        innerDone()
                    }
                }
                let finish: @Sendable () -> Void = {
                    dones.append(index)
                    running.leave()
                    done.value()
                }
                switch spec.done {
                case .beforeReturning: finish()
                case .anotherThread: startThread(finish)
                case .later: DispatchQueue.global().asyncAfter(deadline: .now() + 0.02, execute: finish)
                case .held: startThread { _ = release.passes(within: 1.5); finish() }
                }
            }
        }

        // The callers, all sent off at once from their places; each calls run(_:) for its jobs in order.
        if let stuck = callersReturn(within: 3, scenario.callers.enumerated().map { caller, entry in
            ExploredCaller(start: entry.site.start, calls: {
                for (offset, spec) in entry.jobs.enumerated() {
                    let me = pthread_self()
                    insideRun.insert(me)
                    let began = DispatchTime.now().uptimeNanoseconds
                    limiter.value.run(job(caller, offset, spec))
                    let took = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
                    insideRun.remove(me)
                    if took > 0.5 { slowRuns.append(took) }
                }
            })
        }) { return stuck }
        if let slow = tookTooLong(slowRuns.all.max() ?? 0) { return slow }

        // While the held jobs stay, as many of them must run as there are slots.
        let total = scenario.jobs.count
        let heldWanted = min(limit, scenario.held)
        let deadline = Date().addingTimeInterval(1.5)
        while running.maximum < heldWanted && Date() < deadline { usleep(2_000) }
        let reached = running.maximum
        release.open()
        let expectedExtra = scenario.jobs.filter(\.runsAnother).count
        let allDone = Date().addingTimeInterval(4)
        while (dones.count < total || extra.count < expectedExtra) && Date() < allDone { usleep(2_000) }

        if !startedInsideRun.all.isEmpty {
            return Violation(clause: "It never runs a job on its caller's thread.",
                             observed: "\(startedInsideRun.count) job(s) started inside the run(_:) call that handed them over.")
        }
        if running.maximum > limit {
            return Violation(clause: "At most `maxConcurrent` jobs are between their start and their `done()` at any moment, however long `done()` takes.",
                             observed: "\(running.maximum) jobs ran at once on a limiter of \(limit).")
        }
        if reached < heldWanted {
            return Violation(clause: "when slots are free, up to `maxConcurrent` jobs do run at once.",
                             observed: "with \(scenario.held) jobs held and \(limit) slot(s), at most \(reached) ran at once within 1.5 s.")
        }
        let startedJobs = starts.all
        if startedJobs.count != total || dones.count != total || extra.count != expectedExtra {
            return Violation(clause: "Every job runs exactly once.",
                             observed: "of \(total) jobs handed to run(_:), \(startedJobs.count) started and \(dones.count) called done() within 4 s"
                                + (expectedExtra > 0 ? "; of \(expectedExtra) run(_:) calls made inside jobs, \(extra.count) ran" : "") + ".")
        }
        for caller in scenario.callers.indices {
            let order = startedJobs.filter { $0.caller == caller }.map(\.job)
            if order != order.sorted() {
                return Violation(clause: "Every job runs exactly once, in the order `run(_:)` was called (from several threads at once: each thread's jobs in its order).",
                                 observed: "one caller's jobs started in the order \(order.map { $0 + 1 }), not in the order it handed them over.")
            }
        }
        return nil
    }

    @Test("explored: limits 1 to 16, up to 34 jobs, callers on threads and every kind of queue (main too), done() every way, held jobs let go together, jobs that run more")
    func explored() async {
        await Self.explore()
    }
}

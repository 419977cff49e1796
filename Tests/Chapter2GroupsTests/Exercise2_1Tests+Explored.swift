import Chapter2Groups
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport
import WorkbookWire

// 2.1's contract, executable: a scenario mixes what the contract allows — lists of 0 to 30
// functions, every kind of queue handed over (a global one and the main queue too), runAll called
// from a thread, from the main queue or from the very queue it hands over, one or two runAlls at
// once on that queue, callbacks made before the function returns, from another thread, later, from a
// block sent to the queue, or held and let go together, and completions that call runAll again; one
// run records what happened, and the record is held to each clause of the header.
extension Exercise2_1Tests: ExploredContract {
    static let exploring = "Exploring scenarios of runAll's contract"
    static let ifItCrashed = "libdispatch stops a program that calls `sync` on the serial queue already running the caller, and one that calls `leave()` on a group more often than `enter()`: look at what runs on `queue`, and count what reaches `leave()`."

    enum Callback: String, CaseIterable, Sendable {
        case beforeReturning, anotherThread, later, throughTheQueue, held

        var phrase: String {
            switch self {
            case .beforeReturning: "calling back before they return"
            case .anotherThread: "calling back from another thread"
            case .later: "calling back 20 ms later"
            case .throughTheQueue: "calling back from a block they send to the queue"
            case .held: "held, then calling back all at the same moment"
            }
        }
    }

    /// Where runAll is called from: the chapter's callers (``ExploredCaller``), a global queue aside.
    static let sites: [ExploredCaller] = [.thread, .mainQueue, .theQueueItself]

    struct Call: Sendable, Equatable {
        var callbacks: [Callback]
        /// The completion calls runAll again, with one function, on the same queue.
        var completionRunsAgain: Bool
    }

    struct Scenario: Sendable, Equatable, CustomStringConvertible {
        var queue: QueueKind
        var site: ExploredCaller
        /// One or two runAll calls made one after the other from the site, each with its list.
        var calls: [Call]

        var description: String {
            var parts = ["runAll handed \(queue), called from \(site.phrase)"]
            for (number, call) in calls.enumerated() {
                let kinds = Dictionary(grouping: call.callbacks, by: { $0 }).sorted { $0.key.rawValue < $1.key.rawValue }
                    .map { "\($0.value.count) \($0.key.phrase)" }.joined(separator: ", ")
                parts.append((calls.count > 1 ? "call \(number + 1): " : "")
                    + (call.callbacks.isEmpty ? "an empty list" : "\(call.callbacks.count) function\(call.callbacks.count == 1 ? "" : "s") (\(kinds))")
                    + (call.completionRunsAgain ? ", whose completion calls runAll again" : ""))
            }
            return parts.joined(separator: "; ")
        }
    }

    static func generate(_ random: inout Seeded) -> Scenario {
        Scenario(queue: random.pick(QueueKind.allCases), site: random.pick(Self.sites),
                 calls: (0..<random.pick([1, 1, 2])).map { _ in
                     Call(callbacks: (0..<random.pick([0, 1, 2, 3, 8, 30])).map { _ in random.pick(Callback.allCases) },
                          completionRunsAgain: random.chance(0.15))
                 })
    }

    static func shrink(_ scenario: Scenario) -> [Scenario] {
        var smaller = Smaller(than: scenario)
        for index in scenario.calls.indices where scenario.calls.count > 1 { smaller.with { $0.calls.remove(at: index) } }
        for call in scenario.calls.indices {
            for index in scenario.calls[call].callbacks.indices.reversed() { smaller.with { $0.calls[call].callbacks.remove(at: index) } }
            smaller.with { $0.calls[call].completionRunsAgain = false }
            for index in scenario.calls[call].callbacks.indices { smaller.with { $0.calls[call].callbacks[index] = .beforeReturning } }
        }
        smaller.with { $0.site = .thread }
        return smaller.candidates
    }

    static func run(_ scenario: Scenario) -> Violation? {
        let probe = scenario.queue.make(label: "workbook.explored-runall")
        let insideRunAll = ThreadSet()
        let release = Gate()
        let starts = Tally<(call: Int, onQueue: Bool?, inside: Bool)>()
        let callbacks = Tally<Int>()
        let completions = Tally<(call: Int, onQueue: Bool?, inside: Bool, calledBack: Int, sawAll: Bool)>()
        let slow = Tally<Double>()
        // What each function wrote before calling back: plain memory only runAll's ordering covers.
        let written = scenario.calls.map { call in call.callbacks.map { _ in Box(0) } }

        @Sendable func function(_ call: Int, _ index: Int, _ style: Callback) -> FunctionWithCallback {
            { handed in
                let done = Unchecked(handed)
                starts.append((call, probe.isCurrent, insideRunAll.contains(pthread_self())))
                let callBack: @Sendable () -> Void = {
                    written[call][index].value = 1
                    callbacks.append(call)
                    done.value()
                }
                switch style {
                case .beforeReturning: callBack()
                case .anotherThread: startThread(callBack)
                case .later: DispatchQueue.global().asyncAfter(deadline: .now() + 0.02, execute: callBack)
                case .throughTheQueue: probe.queue.async(execute: callBack)
                case .held: startThread { _ = release.passes(within: 1.5); callBack() }
                }
            }
        }

        @Sendable func makeCall(_ number: Int) {
            let call = scenario.calls[number]
            let functions = call.callbacks.enumerated().map { function(number, $0.offset, $0.element) }
            let me = pthread_self()
            insideRunAll.insert(me)
            let began = DispatchTime.now().uptimeNanoseconds
            runAll(functions, queue: probe.queue) {
                let sawAll = written[number].allSatisfy { $0.value == 1 }
                completions.append((number, probe.isCurrent, insideRunAll.contains(pthread_self()),
                                    callbacks.all.filter { $0 == number }.count, sawAll))
                if call.completionRunsAgain {
                    runAll([{ $0() }], queue: probe.queue) { completions.append((number + 100, probe.isCurrent, false, 0, true)) }
                }
            }
            let took = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
            insideRunAll.remove(me)
            if took > 0.5 { slow.append(took) }
        }

        let returned = Signal()
        scenario.site.start({
            for number in scenario.calls.indices { makeCall(number) }
            returned.fire()
        }, handedQueue: probe.queue)
        guard returned.happens(within: 3) else {
            return Violation(clause: "runAll returns at once: it calls no function itself and never waits for a callback.",
                             observed: "runAll did not return within 3 s.", timedOut: true)
        }
        if let took = slow.all.max() {
            return Violation(clause: "runAll returns at once: it calls no function itself and never waits for a callback.",
                             observed: "a runAll call took \(formatSeconds(took)) to return.")
        }
        let total = scenario.calls.map(\.callbacks.count).reduce(0, +)
        let settled = Date().addingTimeInterval(0.3)
        while starts.count < total && Date() < settled { usleep(2_000) }
        release.open()
        let expectedCompletions = scenario.calls.count + scenario.calls.filter(\.completionRunsAgain).count
        let deadline = Date().addingTimeInterval(4)
        while (completions.count < expectedCompletions || callbacks.count < total) && Date() < deadline { usleep(2_000) }
        // A moment more, so that a second completion shows.
        usleep(50_000)

        if let inside = starts.all.first(where: \.inside) {
            _ = inside
            return Violation(clause: "runAll returns at once: it calls no function itself.",
                             observed: "a function started inside the runAll call, on its caller's thread.")
        }
        if starts.all.contains(where: { $0.onQueue == false }) {
            return Violation(clause: "Every function is started exactly once, on `queue`.", observed: "a function started somewhere other than \(scenario.queue).")
        }
        if starts.count != total {
            return Violation(clause: "Every function is started exactly once, on `queue`.", observed: "\(starts.count) functions started of \(total) handed over.")
        }
        for (number, call) in scenario.calls.enumerated() {
            let mine = completions.all.filter { $0.call == number }
            guard mine.count == 1, let completion = mine.first else {
                return Violation(clause: "`completion` runs exactly once, on `queue`, after every function has called back — never before, never twice.",
                                 observed: "the completion of a runAll with \(call.callbacks.count) function(s) ran \(mine.count) time(s) within 4 s of every callback.")
            }
            if completion.inside {
                return Violation(clause: "`completion` is always submitted to `queue`, never called from inside runAll.",
                                 observed: "the completion ran inside the runAll call itself.")
            }
            if completion.onQueue == false {
                return Violation(clause: "`completion` runs exactly once, on `queue`.", observed: "the completion ran somewhere other than \(scenario.queue).")
            }
            if completion.calledBack < call.callbacks.count {
                return Violation(clause: "`completion` runs … after every function has called back — never before.",
                                 observed: "the completion ran when \(completion.calledBack) of \(call.callbacks.count) functions had called back.")
            }
            if !completion.sawAll {
                return Violation(clause: "`completion` runs … after every function has called back.",
                                 observed: "the completion did not see what a function wrote before calling back.")
            }
            if call.completionRunsAgain, completions.all.filter({ $0.call == number + 100 }).count != 1 {
                return Violation(clause: "`completion` runs exactly once, on `queue` (a completion may call runAll again).",
                                 observed: "a runAll called from inside a completion did not complete exactly once.")
            }
        }
        return nil
    }

    @Test("explored: lists of 0 to 30, every kind of queue (global and main too), called from a thread, the main queue or the queue itself, callbacks every way, completions that run again")
    func explored() async {
        await Self.explore()
    }
}

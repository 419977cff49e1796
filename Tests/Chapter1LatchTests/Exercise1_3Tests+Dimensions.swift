import Chapter1Latch
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport

// MARK: - Dimensions (issue 15)
//
// The same clauses again, generated: for every kind of queue `notify` can be handed, every kind of
// deadline `wait` can be given, every pair of operations at the same moment, two latches at once,
// and a latch let go in every state it can be in. Which test covers which dimension is declared in
// Exercises/Chapter1Latch/chapter.json.
extension Exercise1_3Tests {
    /// The public operations of a latch, by the names the pair test gives them.
    static let operations = ["countDown", "count", "wait", "notify"]

    @Test("notify on every kind of queue: its block runs there, once, handed on (never run by the caller or waited for), and others may use the latch while it runs",
          arguments: HandedQueue.allCases)
    func notifyOnEveryKindOfQueue(_ kind: HandedQueue) async {
        let name = kind.rawValue
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [name = name as String, cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 14, cutShort: cutShort) {
                let kind = HandedQueue(rawValue: name)!
                let probe = kind.make(label: "workbook.test.notify-target")
                let latch = Unchecked(keepAlive(CountDownLatch(count: 1)))
                let events = Tally<String>()
                let onQueue = Tally<Bool>()
                let started = Signal()
                // Each block stays running until the call that handed it on has returned (at most
                // 1.5 s): a call that runs the block itself, or waits for it, returns after "end".
                @Sendable func held(_ block: String, _ released: Signal) -> () -> Void {
                    {
                        onQueue.append(probe.isCurrent)
                        events.append("\(block) start")
                        started.fire()
                        _ = released.happens(within: 1.5)
                        events.append("\(block) end")
                    }
                }
                @Sendable func order(_ block: String, _ call: String) -> String? {
                    let all = events.all
                    guard let end = all.firstIndex(of: "\(block) end"), let returned = all.firstIndex(of: "\(call) returned") else { return nil }
                    guard end < returned else { return nil }
                    return "\(call), called from \(kind.testDescription), returned only after the notify block had finished: it ran the block itself or waited for it. notify blocks are handed to their queue with `async`, and the call goes on at once."
                }

                let firstRelease = Signal()
                guard probe.call(within: 4, {
                    latch.value.notify(queue: probe.queue, execute: held("block 1", firstRelease))
                    events.append("notify returned")
                }) else { return childTimedOut("notify(queue:execute:) on a closed latch, called from \(kind.testDescription), did not return within 4 s") }
                if started.happens(within: 0.05) { return "a notify block handed \(kind.testDescription) ran before anyone counted the latch down" }

                guard probe.call(within: 4, {
                    latch.value.countDown()
                    events.append("countDown returned")
                    firstRelease.fire()
                }) else { return childTimedOut("countDown(), called from \(kind.testDescription) while the notify block it opens stays running, did not return within 4 s") }
                if let wrong = order("block 1", "countDown") { return wrong }
                guard started.happens(within: 2) else {
                    return childTimedOut("the notify block handed \(kind.testDescription) did not run within 2 s of the latch opening")
                }

                // While a notify block runs (and blocks for a while), another thread uses the latch.
                let secondRelease = Signal()
                let other = TestQueue(label: "workbook.test.other-notify-target"), otherRan = Signal()
                guard probe.call(within: 4, {
                    latch.value.notify(queue: probe.queue, execute: held("block 2", secondRelease))
                    events.append("late notify returned")
                    secondRelease.fire()
                }) else { return childTimedOut("notify(queue:execute:) on an open latch, called from \(kind.testDescription), did not return within 4 s") }
                if let wrong = order("block 2", "late notify") { return wrong }
                guard let during = within(2, { () -> (Int, DispatchTimeoutResult) in
                    latch.value.notify(queue: other.queue) { otherRan.fire() }
                    return (latch.value.count, latch.value.wait(timeout: .now() + 1))
                }) else {
                    return childTimedOut("notify, count and wait, called from another thread while a notify block handed \(kind.testDescription) was running, did not return within 2 s: the latch must not hold anything while a notify block runs")
                }
                if during.0 != 0 { return "count on an open latch read \(during.0)" }
                if during.1 == .timedOut { return childTimedOut("wait(timeout: now + 1 s) on an open latch timed out") }
                guard started.happens(within: 2) else {
                    return childTimedOut("a notify block registered on an open latch and handed \(kind.testDescription) did not run within 2 s")
                }
                guard otherRan.happens(within: 2) else { return childTimedOut("a notify block registered on an open latch did not run within 2 s") }
                guard within(4, { probe.queue.sync(flags: .barrier) {} }) != nil else {
                    return childTimedOut("the queue handed to notify stayed busy")
                }
                let all = events.all
                let runs = ["block 1", "block 2"].map { block in all.filter { $0 == "\(block) start" }.count }
                if runs != [1, 1] {
                    return "notify blocks handed \(kind.testDescription) ran \(runs) times (one registered before the latch opened, one after); each must run exactly once"
                }
                if onQueue.all.contains(false) {
                    return "a notify block did not run on the queue it was handed (\(kind.testDescription)); run `execute` on `queue`"
                }
                return nil
            }
        }
        judgeChild(result, "Notifying on \(kind.testDescription)", ifItCrashed: Self.unbalancedLeave)
    }

    @Test("wait(timeout:) with every kind of deadline: an open latch lets it through at once, a closed one keeps it until the deadline or until it opens",
          arguments: DeadlineEdge.allCases)
    func waitWithEveryDeadline(_ edge: DeadlineEdge) async {
        let name = edge.rawValue
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [name = name as String, cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 10, cutShort: cutShort) {
                let edge = DeadlineEdge(rawValue: name)!
                // Open from the start, and opened by countDown(): a wait returns .success at once.
                guard let zero = within(2, { Unchecked(keepAlive(CountDownLatch(count: 0))) }) else {
                    return childTimedOut("CountDownLatch(count: 0) did not return within 2 s")
                }
                guard let opened = within(2, { () -> Unchecked<CountDownLatch> in
                    let latch = keepAlive(CountDownLatch(count: 1))
                    latch.countDown()
                    return Unchecked(latch)
                }) else { return childTimedOut("CountDownLatch(count: 1) and its countDown() did not return within 2 s") }
                // 50 waits each: a wait that returns .success only when some other thread beats it
                // to a finish line fails at least once in 50.
                for (latch, which) in [(zero, "a latch of 0"), (opened, "a latch counted down to 0")] {
                    guard let result = within(1, { () -> DispatchTimeoutResult in
                        for _ in 0..<50 where latch.value.wait(timeout: edge.time) == .timedOut { return .timedOut }
                        return .success
                    }) else {
                        return childTimedOut("wait(timeout:) with \(edge.testDescription) on \(which) did not return within 1 s; an open latch lets every wait through at once")
                    }
                    if result == .timedOut {
                        return childTimedOut("wait(timeout:) with \(edge.testDescription) on \(which) returned .timedOut (in one of 50 waits or more). An open latch lets every wait through, whatever its deadline — even one already past: look at the count before you wait for anything.")
                    }
                }

                let closed = Unchecked(keepAlive(CountDownLatch(count: 1)))
                if edge.expires {
                    guard case let (result, waited)? = within(2, { timedWait(closed.value, edge.time) }) else {
                        return childTimedOut("wait(timeout:) with \(edge.testDescription) on a closed latch did not return within 2 s; it must return at its deadline")
                    }
                    if result == .success { return "wait(timeout:) with \(edge.testDescription) on a latch nobody counted down returned .success; .success must mean the latch is open" }
                    if edge == .soon && waited < 0.05 { return "wait(timeout:) with \(edge.testDescription) on a closed latch returned after \(waited) s; it must wait until its deadline" }
                    guard let count = within(2, { closed.value.count }) else { return childTimedOut("count did not return within 2 s") }
                    if count != 1 { return "after a wait with \(edge.testDescription) timed out, count is \(count); waiting must not change the count" }
                    return nil
                }
                // A deadline far away: the wait must still be waiting 1.5 s later, and return .success
                // as soon as the latch opens.
                let results = Tally<DispatchTimeoutResult>(), returned = Signal()
                startThread {
                    results.append(closed.value.wait(timeout: edge.time))
                    returned.fire()
                }
                if returned.happens(within: 1.5) {
                    return "wait(timeout:) with \(edge.testDescription) on a latch nobody counted down returned \(results.all.first.map { "\($0)" } ?? "") within 1.5 s; it must keep waiting until the latch opens or its deadline passes. A timed wait inside it that ran out means nothing yet: look at the count, or wait again until the caller's deadline."
                }
                guard within(2, { closed.value.countDown() }) != nil else { return childTimedOut("countDown() did not return within 2 s") }
                guard returned.happens(within: 2) else {
                    return childTimedOut("a thread in wait(timeout:) with \(edge.testDescription) was not released within 2 s of the latch opening")
                }
                if results.all != [.success] { return childTimedOut("a thread in wait(timeout:) with \(edge.testDescription) got \(results.all) when the latch opened; it must get .success") }
                return nil
            }
        }
        judgeChild(result, "Waiting with \(edge.testDescription)", ifItCrashed: Self.unbalancedLeave
            + " A deadline can also trap: `DispatchTime` arithmetic traps on overflow — `timeout.uptimeNanoseconds - now` for a deadline already past, or anything added to `.distantFuture`.")
    }

    @Test("every pair of operations at the same moment as the countDown() that opens the latch, 100 latches in a row",
          arguments: OperationPair.every(of: Exercise1_3Tests.operations))
    func everyPairAtTheSameMoment(_ pair: OperationPair) async {
        let first = pair.first, second = pair.second, label = pair.testDescription
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [first = first as String, second = second as String, label = label as String, cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 12, cutShort: cutShort) {
                // Thread 0 makes the first operation, thread 1 the second, thread 2 a countDown();
                // each latch needs every countDown() of its round, so one of them opens it.
                let roles = [first, second, "countDown"]
                let countDowns = roles.filter { $0 == "countDown" }.count
                let notifies = roles.filter { $0 == "notify" }.count
                let rounds = 100
                let latches = Unchecked(keepAlive((0..<rounds).map { _ in CountDownLatch(count: countDowns) }))
                let target = TestQueue()
                // Plain memory each thread writes before its operation: whatever preceded a
                // countDown() must be visible after a successful wait and in a notify block.
                let written = Unchecked(UnsafeMutablePointer<Int>.allocate(capacity: 3 * rounds))
                written.value.initialize(repeating: 0, count: 3 * rounds)
                let problems = Tally<String>(), timeouts = Tally<String>(), notified = Tally<Int>()
                @Sendable func seesCountDowns(_ round: Int) -> Bool {
                    roles.indices.filter { roles[$0] == "countDown" }.allSatisfy { written.value[3 * round + $0] == round + 1 }
                }
                if let problem = spinningRoundsProblem(threads: 3, rounds: rounds, "\(label), with the countDown() that opens the latch, at the same moment", { thread, round in
                    let latch = latches.value[round]
                    written.value[3 * round + thread] = round + 1
                    switch roles[thread] {
                    case "countDown":
                        latch.countDown()
                    case "count":
                        let count = latch.count
                        if count < 0 || count > countDowns { problems.append("count read \(count) on a latch of \(countDowns) while it was counted down; it is never below 0 nor above where it started") }
                    case "wait":
                        if latch.wait(timeout: .now() + 2) == .timedOut {
                            timeouts.append("a wait(timeout: now + 2 s) made at the same moment as the countDown() that opened the latch timed out")
                        } else if !seesCountDowns(round) {
                            problems.append("after wait returned .success, what the counting threads wrote before countDown() was not visible")
                        }
                    default:
                        latch.notify(queue: target.queue) {
                            if !seesCountDowns(round) { problems.append("inside a notify block, what the counting threads wrote before countDown() was not visible") }
                            notified.append(round)
                        }
                    }
                }) { return childTimedOut(problem) }
                if let timeout = timeouts.all.first { return childTimedOut("\(label), at the same moment as the countDown() that opens the latch: \(timeout)") }
                if let problem = problems.all.first { return "\(label), at the same moment as the countDown() that opens the latch: \(problem)" }
                guard within(3, { target.queue.sync {} }) != nil else { return childTimedOut("the notify queue stayed busy") }
                var runs = [Int](repeating: 0, count: rounds)
                for round in notified.all { runs[round] += 1 }
                if let off = runs.indices.first(where: { runs[$0] != notifies }) {
                    return "\(label), at the same moment as the countDown() that opens the latch: a latch got \(notifies) notify calls and ran \(runs[off]) blocks (\(runs.indices.filter { runs[$0] != notifies }.count) of \(rounds) latches were off); each block runs exactly once"
                }
                guard let counts = within(2, { latches.value.map(\.count) }) else { return childTimedOut("reading count of \(rounds) latches did not finish within 2 s") }
                if let off = counts.first(where: { $0 != 0 }) {
                    return "\(label), at the same moment as the countDown() that opens the latch: afterwards a latch has count \(off); every countDown() it needed was made"
                }
                return nil
            }
        }
        judgeChild(result, "\(label) at the same moment as the opening countDown()", ifItCrashed: Self.unbalancedLeave)
    }

    @Test("two latches at once, one counted down from the other's notify block: each keeps its own count")
    func twoLatchesKeepTheirOwnCounts() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) {
                guard let pair = within(2, { Unchecked(keepAlive((CountDownLatch(count: 1), CountDownLatch(count: 2)))) }) else {
                    return childTimedOut("making two latches did not return within 2 s")
                }
                let first = Unchecked(pair.value.0), second = Unchecked(pair.value.1)
                let target = TestQueue()
                let firstRan = Signal(), secondOpened = Signal()
                guard let counts = within(2, { (first.value.count, second.value.count) }) else { return childTimedOut("count did not return within 2 s") }
                if counts != (1, 2) {
                    return "CountDownLatch(count: 1) and CountDownLatch(count: 2), made one after the other, have counts \(counts.0) and \(counts.1): each latch keeps its own count (no `static` or global state)"
                }
                guard within(2, { () -> Void in
                    first.value.notify(queue: target.queue) { second.value.countDown(); firstRan.fire() }
                    second.value.notify(queue: target.queue) { secondOpened.fire() }
                    first.value.countDown()
                }) != nil else { return childTimedOut("notify and countDown() on two latches did not return within 2 s") }
                guard firstRan.happens(within: 2) else { return childTimedOut("the first latch's notify block did not run within 2 s of it opening") }
                guard let after = within(2, { (first.value.count, second.value.count, second.value.wait(timeout: .now() + 0.1)) }) else {
                    return childTimedOut("count and wait on two latches did not return within 2 s")
                }
                if after.0 != 0 || after.1 != 1 {
                    return "after the first latch (of 1) opened and its notify block counted the second (of 2) down once, their counts are \(after.0) and \(after.1); they must be 0 and 1 — each latch keeps its own count"
                }
                if after.2 == .success || secondOpened.happens(within: 0.05) {
                    return "a latch of 2 counted down once (from another latch's notify block) let a wait or its notify block through; it opens only at zero"
                }
                guard within(2, { second.value.countDown() }) != nil else { return childTimedOut("countDown() did not return within 2 s") }
                guard secondOpened.happens(within: 2) else { return childTimedOut("the second latch's notify block did not run within 2 s of it opening") }
                return nil
            }
        }
        judgeChild(result, "Two latches, one counted down from the other's notify block", ifItCrashed: Self.unbalancedLeave)
    }

    /// The states a latch can be let go in.
    enum Release: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case freshClosed, freshOpen, afterTimedOutWait, opened, openedWithBlocksQueued

        var testDescription: String {
            switch self {
            case .freshClosed: "a new latch of 3"
            case .freshOpen: "a new latch of 0"
            case .afterTimedOutWait: "a latch of 1 after a wait on it timed out"
            case .opened: "a latch after it opened and a wait went through"
            case .openedWithBlocksQueued: "a latch that opened while its notify blocks still wait for their busy queue"
            }
        }
    }

    @Test("a latch let go in every state: nothing traps, and notify blocks already handed on still run",
          arguments: Release.allCases)
    func releasedInEveryState(_ state: Release) async {
        let name = state.rawValue
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [name = name as String, cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) {
                let state = Exercise1_3Tests.Release(rawValue: name)!
                let target = TestQueue()
                let ran = Tally<Int>(), busy = Slot<QueueHold>()
                let made = within(2, { () -> Bool in
                    switch state {
                    case .freshClosed: _ = CountDownLatch(count: 3)
                    case .freshOpen: _ = CountDownLatch(count: 0)
                    case .afterTimedOutWait:
                        let latch = CountDownLatch(count: 1)
                        _ = latch.wait(timeout: .now() + 0.05)
                    case .opened:
                        let latch = CountDownLatch(count: 1)
                        latch.countDown()
                        _ = latch.wait(timeout: .now() + 0.5)
                    case .openedWithBlocksQueued:
                        busy.value = QueueHold(target, seconds: 3)
                        let latch = CountDownLatch(count: 1)
                        latch.notify(queue: target.queue) { ran.append(1) }
                        latch.countDown()
                        latch.notify(queue: target.queue) { ran.append(2) }
                    }
                    return true
                })
                guard made != nil else { return childTimedOut("making \(state.testDescription) and letting it go did not return within 2 s") }
                guard state == .openedWithBlocksQueued, let busy = busy.value else { return nil }
                if let late = busy.notHolding() { return late }
                busy.release()
                guard within(4, { target.queue.sync {} }) != nil else { return childTimedOut("the notify queue stayed busy") }
                if ran.all.sorted() != [1, 2] {
                    return "a latch opened and was let go while its two notify blocks waited for their busy queue; then \(ran.count) of them ran (\(ran.all)). A latch that opened has handed its blocks on: they run, once each, whether or not the latch still exists."
                }
                return nil
            }
        }
        judgeChild(result, "Letting go of \(state.testDescription)", ifItCrashed: "letting go of \(state.testDescription) stopped the program. libdispatch traps when a semaphore is released with its value below the value it was created with, and when a group is left more often than entered. Read the contract's last rule in CountDownLatch.swift and step 3 of the lesson's 1.3.")
    }
}

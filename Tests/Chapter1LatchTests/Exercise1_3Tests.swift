import Chapter1Latch
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport

// Every test that calls `countDown()` runs in a child process (an exit test): a latch built on a
// `DispatchGroup` traps on a `leave()` without its `enter()` — a count that goes past zero, or two
// callers that both think they reached it — and a trap must fail one test, not end the run.

@Suite("1.3 CountDownLatch", .gradedUnderTSan)
struct Exercise1_3Tests {
    static let unbalancedLeave =
        "libdispatch stops a program that calls `leave()` on a group more often than `enter()`, and one that calls `sync` on the serial queue already running it (the crash report on Apple platforms says \"Unbalanced call to dispatch_group_leave()\" or \"dispatch_sync called on queue already owned by current thread\"; on Linux the process just traps, with no message). Count the calls that can reach `leave()`, and look at what runs inside your queue. The lesson's \"A group, just enough of it\" and \"Running the caller's code inside the queue\" explain both."

    @Test("a latch nobody counted down: wait(timeout:) returns .timedOut at its deadline, and changes nothing")
    func closedLatchTimesOut() {
        guard let latch = bounded("CountDownLatch(count: 1)", { Unchecked(keepAlive(CountDownLatch(count: 1))) })
        else { return }
        guard case let (result, waited)? = bounded("wait(timeout: now + 0.2 s) on a closed latch", { timedWait(latch.value, .now() + 0.2) })
        else { return }
        verify(result == .timedOut, "wait(timeout: now + 0.2 s) on a latch of 1 that nobody counted down returned .success; .success must mean the latch is open. Check what your wait does with the result of the timed wait inside it.")
        verify(waited >= 0.15, "wait(timeout: now + 0.2 s) on a closed latch returned after \(waited) s; it must wait until its deadline")
        guard let count = bounded("count", { latch.value.count }) else { return }
        verify(count == 1, "after a timed-out wait, count is \(count); waiting must not change the count")
    }

    @Test("once open, the latch lets every waiter through, again and again, from many threads at once")
    func everyLaterWaitSucceeds() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) {
                let latch = Unchecked(keepAlive(CountDownLatch(count: 1)))
                guard within(2, { latch.value.countDown() }) != nil else { return childTimedOut("countDown() did not return within 2 s") }
                for attempt in 1...3 {
                    guard let result = within(2, { latch.value.wait(timeout: .now() + 0.5) }) else {
                        return childTimedOut("wait(timeout: now + 0.5 s) number \(attempt) on an open latch did not return within 2 s")
                    }
                    if result == .timedOut {
                        return childTimedOut("wait(timeout:) number \(attempt) on an open latch waited 0.5 s and timed out; on an open latch, every wait(timeout:) returns .success at once, however many come.")
                    }
                }
                let timedOutWaits = Tally<Int>()
                if let problem = gatedProblem(threads: 4, iterations: 50, "four threads each waiting 50 times on an open latch", { thread, _ in
                    if latch.value.wait(timeout: .now() + 0.5) == .timedOut { timedOutWaits.append(thread) }
                }) { return problem }
                if timedOutWaits.count > 0 {
                    return childTimedOut("\(timedOutWaits.count) of 200 waits, made by four threads at once on an open latch, timed out; every wait on an open latch must succeed.")
                }
                return nil
            }
        }
        judgeChild(result, "Waiting on an open latch", ifItCrashed: Self.unbalancedLeave)
    }

    @Test("threads already waiting are all released at zero")
    func waitingThreadsAllWake() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 6, cutShort: cutShort) {
                let latch = Unchecked(keepAlive(CountDownLatch(count: 2)))
                let results = Tally<DispatchTimeoutResult>()
                let ready = Signal(), done = Signal()
                for _ in 0..<4 {
                    startThread {
                        ready.fire()
                        results.append(latch.value.wait(timeout: .now() + 1.5))
                        done.fire()
                    }
                }
                for _ in 0..<4 where !ready.happens(within: 2) { return "a waiting thread did not start" }
                // Let the waiters get into wait(timeout:) (not needed for a right answer: a later waiter
                // must succeed too).
                usleep(100_000)
                if results.count > 0 {
                    return "\(results.count) of 4 threads returned from wait(timeout: 1.5 s) before anyone counted down (\(results.all)); wait must block while the latch is closed"
                }
                guard within(2, { () -> Void in latch.value.countDown(); latch.value.countDown() }) != nil else {
                    return childTimedOut("two countDown() calls on a latch of 2 did not return within 2 s while threads were waiting")
                }
                for _ in 0..<4 where !done.happens(within: 3) {
                    return childTimedOut("a thread waiting on the latch did not return from wait(timeout: 1.5 s) within 3 s")
                }
                let timedOutWaits = results.all.filter { $0 == .timedOut }.count
                if timedOutWaits > 0 {
                    return childTimedOut("\(timedOutWaits) of 4 threads waiting on the latch timed out after it reached zero; every waiter must be released.")
                }
                return nil
            }
        }
        judgeChild(result, "Releasing four waiting threads", ifItCrashed: Self.unbalancedLeave)
    }

    @Test("countDown at zero does nothing; the count never goes negative; a latch of 0 is open from the start")
    func countStopsAtZero() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 6, cutShort: cutShort) {
                let latch = Unchecked(keepAlive(CountDownLatch(count: 2)))
                guard let before = within(2, { latch.value.count }) else { return childTimedOut("count did not return within 2 s") }
                if before != 2 { return "a new CountDownLatch(count: 2) has count \(before)" }
                guard within(2, { () -> Void in latch.value.countDown(); latch.value.countDown(); latch.value.countDown() }) != nil else {
                    return childTimedOut("three countDown() calls on a latch of 2 did not return within 2 s")
                }
                guard let after = within(2, { latch.value.count }) else { return childTimedOut("count did not return within 2 s") }
                if after != 0 { return "after 3 countDown() calls on a latch of 2, count is \(after); it must stay at 0" }
                guard let opened = within(2, { latch.value.wait(timeout: .now() + 0.5) }) else {
                    return childTimedOut("wait(timeout: now + 0.5 s) after a countDown() past zero did not return within 2 s")
                }
                if opened == .timedOut { return childTimedOut("after 3 countDown() calls on a latch of 2, wait(timeout: 0.5 s) timed out") }

                guard let zero = within(2, { Unchecked(keepAlive(CountDownLatch(count: 0))) }) else {
                    return childTimedOut("CountDownLatch(count: 0) did not return within 2 s")
                }
                guard let zeroWait = within(2, { zero.value.wait(timeout: .now() + 0.5) }) else {
                    return childTimedOut("wait(timeout: now + 0.5 s) on a latch of 0 did not return within 2 s")
                }
                if zeroWait == .timedOut { return childTimedOut("wait(timeout: 0.5 s) on CountDownLatch(count: 0) timed out; a latch of 0 is open from the start") }
                guard within(2, { zero.value.countDown() }) != nil else { return childTimedOut("countDown() on a latch of 0 did not return within 2 s") }
                guard let zeroCount = within(2, { zero.value.count }) else { return childTimedOut("count did not return within 2 s") }
                if zeroCount != 0 { return "countDown() on a latch of 0 made its count \(zeroCount); at zero countDown() does nothing" }
                return nil
            }
        }
        judgeChild(result, "Counting down past zero", ifItCrashed: Self.unbalancedLeave)
    }

    @Test("a wait that timed out changes nothing: the latch still opens, and still lets everyone through")
    func timedOutWaitChangesNothing() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 6, cutShort: cutShort) {
                let latch = Unchecked(keepAlive(CountDownLatch(count: 1)))
                for _ in 0..<2 {
                    guard let early = within(2, { latch.value.wait(timeout: .now() + 0.05) }) else {
                        return childTimedOut("wait(timeout: now + 0.05 s) on a closed latch did not return within 2 s")
                    }
                    if early == .success { return "wait(timeout: 0.05 s) on a latch nobody counted down returned .success" }
                }
                guard within(2, { latch.value.countDown() }) != nil else { return childTimedOut("countDown() did not return within 2 s") }
                for attempt in 1...2 {
                    guard let later = within(2, { latch.value.wait(timeout: .now() + 0.5) }) else {
                        return childTimedOut("wait(timeout: now + 0.5 s) on an open latch did not return within 2 s")
                    }
                    if later == .timedOut && attempt == 1 {
                        return childTimedOut("after two waits had timed out on the closed latch, the latch was opened, and the next wait(timeout: 0.5 s) timed out. A wait that times out must leave nothing behind.")
                    }
                    if later == .timedOut {
                        return childTimedOut("after two waits had timed out on the closed latch, the latch was opened; the next wait succeeded, but the one after it timed out. Once open, a latch lets every waiter through.")
                    }
                }
                return nil
            }
        }
        judgeChild(result, "Opening a latch after waits timed out", ifItCrashed: Self.unbalancedLeave)
    }

    @Test("notify runs each block once, on its queue, after zero — asynchronously even when already open — and never blocks countDown")
    func notifyRunsOnQueue() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) {
                let target = TestQueue()
                let latch = Unchecked(keepAlive(CountDownLatch(count: 2)))
                let runs = Tally<(block: Int, onQueue: Bool)>()
                let ran = Signal()
                for block in 0..<3 {
                    guard within(2, {
                        latch.value.notify(queue: target.queue) { runs.append((block, target.isCurrent)); ran.fire() }
                    }) != nil else { return childTimedOut("notify(queue:execute:) on a closed latch did not return within 2 s") }
                }
                guard within(2, { latch.value.countDown() }) != nil else { return childTimedOut("countDown() did not return within 2 s") }
                if ran.happens(within: 0.05) { return "a notify block ran after 1 of 2 countDown() calls; it must wait for zero" }

                // The test keeps `target` busy: countDown must hand the blocks to the queue, not run
                // them, nor wait for them.
                let busy = QueueHold(target, seconds: 3)
                if let late = busy.notHolding() { return late }
                let returned = within(1, { latch.value.countDown() }) != nil
                let early = runs.all
                busy.release()
                if !returned {
                    return childTimedOut("the last countDown() did not return within 1 s while the notify queue was busy: countDown must submit the notify blocks to their queue (async), not run or wait for them")
                }
                if !early.isEmpty {
                    return "notify blocks ran while their queue was busy with other work (\(early.count) of them) — they ran somewhere else; notify must run its block on the queue it was given"
                }
                for _ in 0..<3 where !ran.happens(within: 2) {
                    return childTimedOut("notify's blocks did not all run within 2 s of the count reaching zero (\(runs.count) of 3 ran)")
                }

                // Registered after zero: submitted at once, but still to the queue, asynchronously.
                let late = Signal(), lateBusy = QueueHold(target, seconds: 3)
                if let problem = lateBusy.notHolding() { return problem }
                let lateReturned = within(1, {
                    latch.value.notify(queue: target.queue) { runs.append((3, target.isCurrent)); late.fire() }
                }) != nil
                let lateEarly = runs.all.filter { $0.block == 3 }
                lateBusy.release()
                if !lateReturned {
                    return childTimedOut("notify(queue:execute:) on an open latch did not return within 1 s while its queue was busy; notify must not wait for the block")
                }
                if !lateEarly.isEmpty {
                    return "a notify block registered on an open latch ran before notify returned, while its queue was busy — it ran on the caller's thread; it must be submitted to the queue it was given"
                }
                guard late.happens(within: 2) else {
                    return childTimedOut("a notify registered after zero did not run within 2 s; on an open latch it is submitted at once")
                }
                guard within(2, { target.queue.sync {} }) != nil else { return childTimedOut("the notify queue stayed busy") }
                let all = runs.all
                let perBlock = (0..<4).map { block in all.filter { $0.block == block }.count }
                if perBlock != [1, 1, 1, 1] {
                    return "notify blocks ran \(perBlock) times (three registered before zero, one after); each must run exactly once"
                }
                if all.contains(where: { !$0.onQueue }) {
                    return "\(all.filter { !$0.onQueue }.count) of 4 notify blocks did not run on the queue given to notify"
                }
                return nil
            }
        }
        judgeChild(result, "Notifying on a queue", ifItCrashed: Self.unbalancedLeave)
    }

    @Test("a notify block may use its latch: count, countDown, wait and notify all work from inside it")
    func notifyBlockMayUseTheLatch() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 6, cutShort: cutShort) {
                let target = TestQueue()
                let latch = Unchecked(keepAlive(CountDownLatch(count: 1)))
                let seen = Tally<String>()
                let outer = Signal(), nested = Signal()
                guard within(2, {
                    latch.value.notify(queue: target.queue) {
                        seen.append("count \(latch.value.count)")
                        latch.value.countDown()
                        seen.append("wait \(latch.value.wait(timeout: .now() + 1) == .success ? "success" : "timedOut")")
                        latch.value.notify(queue: target.queue) { nested.fire() }
                        outer.fire()
                    }
                }) != nil else { return childTimedOut("notify(queue:execute:) did not return within 2 s") }
                guard within(2, { latch.value.countDown() }) != nil else { return childTimedOut("countDown() did not return within 2 s") }
                guard outer.happens(within: 3) else {
                    return childTimedOut("a notify block that uses its latch (count, countDown, wait) did not finish within 3 s — it waits for something the latch holds")
                }
                guard nested.happens(within: 2) else {
                    return childTimedOut("a notify registered from inside a notify block, on the open latch, did not run within 2 s")
                }
                if seen.all != ["count 0", "wait success"] {
                    return "inside a notify block the latch said \(seen.all); expected [count 0, wait success]"
                }
                return nil
            }
        }
        judgeChild(result, "A notify block that uses its latch", ifItCrashed: Self.unbalancedLeave)
    }

    @Test("4 000 countDowns from four threads open the latch once; count reads stay consistent, and what they wrote is visible")
    func concurrentCountDowns() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 12, cutShort: cutShort) {
                let latch = Unchecked(keepAlive(CountDownLatch(count: 4 * 1_000)))
                let target = TestQueue()
                let written = Unchecked(UnsafeMutablePointer<Int>.allocate(capacity: 4))
                written.value.initialize(repeating: 0, count: 4)
                let notified = Tally<Int>(), opened = Signal()
                guard within(2, {
                    latch.value.notify(queue: target.queue) {
                        notified.append((0..<4).reduce(0) { $0 + written.value[$1] })
                        opened.fire()
                    }
                }) != nil else { return childTimedOut("notify(queue:execute:) did not return within 2 s") }

                let waited = Tally<DispatchTimeoutResult>(), sums = Tally<Int>(), waiter = Signal()
                startThread {
                    let result = latch.value.wait(timeout: .now() + 4)
                    waited.append(result)
                    // Plain memory written before countDown() must be visible after a successful wait.
                    if result == .success { sums.append((0..<4).reduce(0) { $0 + written.value[$1] }) }
                    waiter.fire()
                }
                // Another thread reads `count` all the while: it must never go up, nor below zero.
                let readings = Tally<Int>(), stopReading = Signal(), readerDone = Signal()
                startThread {
                    var last = Int.max
                    while !stopReading.happens(within: 0) {
                        let now = latch.value.count
                        if now > last || now < 0 { readings.append(now) }
                        last = now
                    }
                    readerDone.fire()
                }
                let problem = gatedProblem(threads: 4, iterations: 1_000, "4 000 countDown() calls") { thread, iteration in
                    written.value[thread] = iteration
                    latch.value.countDown()
                }
                stopReading.fire()
                if let problem { return problem }
                guard readerDone.happens(within: 2) else { return childTimedOut("reading count did not return within 2 s") }
                guard waiter.happens(within: 5) else {
                    return childTimedOut("the thread waiting on the latch did not return from wait(timeout: 4 s)")
                }
                if waited.all == [.timedOut] {
                    return childTimedOut("wait(timeout: 4 s) timed out although all 4 000 countDown() calls were made")
                }
                if !sums.all.allSatisfy({ $0 == 4 * 999 }) {
                    return "after wait returned .success, the writes made before countDown() were not all visible"
                }
                guard opened.happens(within: 2) else {
                    return childTimedOut("notify's block did not run within 2 s of the count reaching zero")
                }
                guard within(2, { target.queue.sync {} }) != nil else { return childTimedOut("the notify queue stayed busy") }
                if notified.all != [4 * 999] {
                    return notified.count == 1
                        ? "inside the notify block, the writes made before countDown() were not all visible"
                        : "notify's block ran \(notified.count) times; it must run exactly once"
                }
                guard let count = within(2, { latch.value.count }) else { return childTimedOut("count did not return within 2 s") }
                if count != 0 { return "after 4 000 countDown() calls on a latch of 4 000, count is \(count)" }
                if let bad = readings.all.first {
                    return "while four threads counted down, another thread read count and saw it go up or below zero (\(bad)); read `remaining` inside the same queue (or lock) that changes it"
                }
                return nil
            }
        }
        judgeChild(result, "Four threads counting down 4 000 times", ifItCrashed: Self.unbalancedLeave)
    }

    @Test("500 latches of 1 to 4, each counted down once by each of four threads at the same moment: each opens exactly once", .runsAlone)
    func opensOnceWhenTheLastCountDownsCollide() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 12, cutShort: cutShort) {
                let rounds = 500
                let target = TestQueue()
                // Counts 1 to 4 for four callers: the countDown that reaches zero, and up to three after it,
                // arrive at the same moment.
                let latches = Unchecked(keepAlive((0..<rounds).map { round in CountDownLatch(count: 1 + round % 4) }))
                let opened = Tally<Int>()
                guard within(2, { () -> Void in
                    for (round, latch) in latches.value.enumerated() {
                        latch.notify(queue: target.queue) { opened.append(round) }
                    }
                }) != nil else { return childTimedOut("registering 500 notify blocks did not return within 2 s") }
                if let problem = spinningRoundsProblem(rounds: rounds, "four threads counting down 500 latches, one round per latch", { _, round in
                    latches.value[round].countDown()
                }) { return childTimedOut(problem) }
                guard within(2, { target.queue.sync {} }) != nil else { return childTimedOut("the notify queue stayed busy") }
                var runs = [Int](repeating: 0, count: rounds)
                for round in opened.all { runs[round] += 1 }
                if let first = runs.indices.first(where: { runs[$0] != 1 }) {
                    return "a latch of \(1 + first % 4) counted down once by each of four threads at the same moment ran its notify block \(runs[first]) times (\(runs.indices.filter { runs[$0] != 1 }.count) of 500 latches were wrong); it must run exactly once. Decide \"this countDown reached zero\" in the same critical section that lowers the count."
                }
                // Extra countDowns that arrived with the one reaching zero must leave the count at zero.
                guard let counts = within(2, { latches.value.map(\.count) }) else {
                    return childTimedOut("reading count of 500 latches did not finish within 2 s")
                }
                if let first = counts.firstIndex(where: { $0 != 0 }) {
                    return "a latch of \(1 + first % 4), counted down once by each of four threads at the same moment, has count \(counts[first]) afterwards (\(counts.filter { $0 != 0 }.count) of 500 latches do); a latch at zero stays at zero. Check \"above zero\" and lower the count in the same critical section."
                }
                // Stops at the first latch that does not let a wait through.
                guard let stillClosed = within(3, { latches.value.firstIndex { $0.wait(timeout: .now() + 0.5) == .timedOut } }) else {
                    return childTimedOut("waiting on 500 open latches, one after another, did not finish within 3 s")
                }
                if let stillClosed {
                    return childTimedOut("latch number \(stillClosed + 1) of 500 (count \(1 + stillClosed % 4)), counted down once by each of four threads, did not let a wait through within 0.5 s")
                }
                return nil
            }
        }
        judgeChild(result, "Four threads counting down 500 latches at the same moment", ifItCrashed: Self.unbalancedLeave)
    }

    // A group released while still entered is not freed on any current platform:
    // `dispatch_group_enter` retained it (libdispatch src/semaphore.c, rdar://problem/22318411), so
    // it is leaked with its `notify` blocks and whatever they capture (Exercises/MEASUREMENTS.md,
    // M8). So the test checks that a latch released while closed neither runs its notify blocks
    // nor keeps them.

    @Test("a latch released while still closed runs none of its notify blocks, lets go of them, and does not trap")
    func closedLatchReleased() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) {
                final class Token: @unchecked Sendable {}
                final class Watch: @unchecked Sendable {
                    private let lock = NSLock()
                    private weak var token: Token?
                    func watch(_ token: Token) { lock.lock(); self.token = token; lock.unlock() }
                    var isGone: Bool { lock.lock(); defer { lock.unlock() }; return token == nil }
                }
                let target = TestQueue()
                let ran = Signal()
                let watch = Watch()
                let made = within(2, { () -> Bool in
                    let token = Token()
                    watch.watch(token)
                    let latch = CountDownLatch(count: 1)
                    latch.notify(queue: target.queue) { _ = token; ran.fire() }
                    _ = latch.wait(timeout: .now() + 0.05)
                    return true
                })
                guard made != nil else {
                    return childTimedOut("making a latch of 1, registering a notify block and waiting 0.05 s on it did not return within 2 s")
                }
                // Nothing holds the latch any more: it has been released.
                if ran.happens(within: 0.5) {
                    return "a notify block ran although its latch was released before anyone counted it down; notify blocks run only once the latch is open. Read the last rule of the contract in CountDownLatch.swift."
                }
                for _ in 0..<20 where !watch.isGone { usleep(100_000) }
                if !watch.isGone {
                    return "2.5 s after a latch that never opened was released, its notify block (and what the block captured) is still alive: something the latch owned outlived it and still holds the block. Read the last rule of the contract in CountDownLatch.swift and step 3 of the lesson's 1.3."
                }
                return nil
            }
        }
        judgeChild(result, "Releasing a latch that never opened", ifItCrashed: "releasing a latch that never opened stopped the program. libdispatch traps when a semaphore is released with its value below the value it was created with (Linux and Apple platforms). Read the contract's last rule in CountDownLatch.swift and step 3 of the lesson's 1.3.")
    }
}

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

import Chapter1Latch
import Dispatch
import Testing
import WorkbookTestSupport

@Suite("1.3 CountDownLatch")
struct Exercise1_3Tests {
    @Test("once open, the latch lets every waiter through, again and again")
    func everyLaterWaitSucceeds() {
        let latch = CountDownLatch(count: 1)
        latch.countDown()
        for attempt in 1...3 where latch.wait(timeout: .now() + 0.5) == .timedOut {
            recordTimeout("wait(timeout:) number \(attempt) on an open latch waited 0.5 s and timed out. A semaphore lets one wait through per signal; a latch, once open, lets everyone through.")
            return
        }
    }

    @Test("threads already waiting are all released at zero")
    func waitingThreadsAllWake() {
        let latch = Unchecked(CountDownLatch(count: 2))
        let results = Tally<DispatchTimeoutResult>()
        let ready = Signal(), done = Signal()
        for _ in 0..<3 {
            startThread {
                ready.fire()
                results.append(latch.value.wait(timeout: .now() + 1))
                done.fire()
            }
        }
        for _ in 0..<3 { ready.wait("a waiting thread did not start") }
        latch.value.countDown()
        latch.value.countDown()
        for _ in 0..<3 { done.wait("a waiter did not return from wait(timeout: 1 s)", seconds: 3) }
        let timedOut = results.all.filter { $0 == .timedOut }.count
        if timedOut > 0 {
            recordTimeout("\(timedOut) of 3 threads waiting on the latch timed out after it reached zero; every waiter must be released.")
        }
    }

    @Test("countDown at zero does nothing; the count never goes negative")
    func countStopsAtZero() {
        let latch = CountDownLatch(count: 2)
        #expect(latch.count == 2)
        latch.countDown(); latch.countDown(); latch.countDown()
        #expect(latch.count == 0, "after 3 countDown() calls on a latch of 2, count is \(latch.count); it must stay at 0")
        #expect(CountDownLatch(count: 0).count == 0)
    }

    @Test("notify runs once, on the given queue, after the last countDown — or at once when already open")
    func notifyRunsOnQueue() {
        let target = TestQueue()
        let latch = CountDownLatch(count: 2)
        let ran = Signal(), onQueue = Tally<Bool>()
        latch.notify(queue: target.queue) { onQueue.append(target.isCurrent); ran.fire() }
        latch.countDown()
        #expect(!ran.happens(within: 0.05), "notify's block ran before the count reached zero")
        latch.countDown()
        ran.wait("notify's block did not run within 2 s of the count reaching zero")

        let late = Signal()
        latch.notify(queue: target.queue) { onQueue.append(target.isCurrent); late.fire() }
        late.wait("a notify registered after zero did not run within 2 s; it should run right away")
        #expect(onQueue.all == [true, true], "notify blocks must run on the queue they were given")
    }

    @Test("4 000 countDowns from four threads open the latch exactly once, and what they wrote is visible")
    func concurrentCountDowns() {
        let latch = Unchecked(CountDownLatch(count: 4 * 1_000))
        let target = TestQueue()
        let notified = Tally<Void>(), opened = Signal()
        latch.value.notify(queue: target.queue) { notified.append(()); opened.fire() }
        let written = Unchecked(UnsafeMutablePointer<Int>.allocate(capacity: 4))
        written.value.initialize(repeating: 0, count: 4)
        defer { written.value.deallocate() }

        let waited = Tally<DispatchTimeoutResult>(), sums = Tally<Int>(), waiter = Signal()
        startThread {
            let result = latch.value.wait(timeout: .now() + 3)
            waited.append(result)
            // Plain memory written before countDown() must be visible after a successful wait.
            if result == .success { sums.append((0..<4).reduce(0) { $0 + written.value[$1] }) }
            waiter.fire()
        }
        runConcurrently(threads: 4, iterations: 1_000, "4 000 countDown() calls") { thread, iteration in
            written.value[thread] = iteration
            latch.value.countDown()
        }
        waiter.wait("the thread waiting on the latch did not return from wait(timeout: 3 s)", seconds: 4)
        if waited.all == [.timedOut] {
            recordTimeout("wait(timeout: 3 s) timed out although all 4 000 countDown() calls were made")
        }
        #expect(sums.all.allSatisfy { $0 == 4 * 999 }, "after wait returned .success, the writes made before countDown() were not all visible")
        opened.wait("notify's block did not run within 2 s of the count reaching zero")
        target.queue.sync {}
        #expect(latch.value.count == 0)
        #expect(notified.count == 1, "notify's block ran \(notified.count) times; it must run exactly once")
    }
}

import Chapter5BuggyCounter
import Dispatch
import Testing
import WorkbookTestSupport

@Suite("5.2 performAll(times:work:queue:completion:)")
struct Exercise5_2Tests {
    @Test("callbacks from four threads at once: completion runs once, on the queue, after all of them")
    func callbacksFromSeveralThreads() {
        let target = TestQueue()
        let held = HeldCallbacks()
        let completions = Tally<Bool>(), done = Signal()
        performAll(times: 2_000, work: held.work, queue: target.queue) {
            completions.append(target.isCurrent)
            done.fire()
        }
        #expect(held.count == 2_000, "work was started \(held.count) times; it must be started 2 000 times")
        #expect(completions.count == 0, "completion ran before any work called back")

        held.releaseAll(threads: 4, "calling back 2 000 times from 4 threads")
        done.wait("completion was not called within 2 s of the last of 2 000 callbacks")
        target.queue.sync {}
        #expect(completions.all == [true], "completion must run exactly once, on the given queue; it ran \(completions.count) times")
    }

    @Test("work that calls back before it returns", arguments: [1, 3])
    func synchronousCallbacks(times: Int) {
        let target = TestQueue()
        let completions = Tally<Void>(), done = Signal()
        performAll(times: times, work: fakeWork(.synchronous), queue: target.queue) {
            completions.append(())
            done.fire()
        }
        done.wait("completion was not called within 2 s, although all \(times) callbacks came before performAll returned")
        target.queue.sync {}
        #expect(completions.count == 1, "with \(times) synchronous callbacks, completion ran \(completions.count) times; it must run exactly once")
    }

    @Test("work that calls back later, from another thread")
    func asynchronousCallbacks() {
        let target = TestQueue()
        let completions = Tally<Bool>(), done = Signal()
        performAll(times: 5, work: fakeWork(.asynchronous), queue: target.queue) {
            completions.append(target.isCurrent)
            done.fire()
        }
        done.wait("completion was not called within 2 s of 5 asynchronous callbacks")
        target.queue.sync {}
        #expect(completions.all == [true], "completion must run exactly once, on the given queue")
    }
}

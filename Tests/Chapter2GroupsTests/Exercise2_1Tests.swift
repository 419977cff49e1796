import Chapter2Groups
import Dispatch
import Testing
import WorkbookTestSupport

@Suite("2.1 runAll(_:queue:completion:)")
struct Exercise2_1Tests {
    @Test("completion waits for functions that the queue starts later")
    func completionWaitsForLateStarts() {
        let target = TestQueue()
        let held = HeldCallbacks()
        let completions = Tally<Bool>(), done = Signal()

        // The queue is busy when runAll is called, so whatever runAll sends to it runs later —
        // after runAll has returned and after `notify` has looked at the group.
        let busy = QueueHold([target.queue])
        runAll(Array(repeating: held.work, count: 3), queue: target.queue) {
            completions.append(target.isCurrent)
            done.fire()
        }
        busy.release()
        target.queue.sync {}  // everything runAll sent to the queue so far has run

        #expect(held.count == 3, "\(held.count) of 3 functions were started; runAll must start every function")
        #expect(completions.count == 0, """
            completion ran although no function had called back yet: when notify(queue:) was called \
            the group was empty, so it scheduled completion at once. A function must be counted \
            (enter) before notify is called, not when the queue gets round to starting it.
            """)

        held.releaseAll(threads: 3, "calling back 3 functions from 3 threads")
        done.wait("completion was not called within 2 s of the last callback")
        target.queue.sync {}
        #expect(completions.all == [true], "completion must run exactly once, on the given queue; it ran \(completions.count) times")
    }

    @Test("mixed functions: completion once, on the queue, after every callback")
    func mixedFunctions() {
        let target = TestQueue()
        let held = HeldCallbacks()
        let functions: [FunctionWithCallback] = [fakeWork(.synchronous), fakeWork(.asynchronous)]
            + Array(repeating: held.work, count: 400)
        let completions = Tally<Bool>(), done = Signal()

        runAll(functions, queue: target.queue) {
            completions.append(target.isCurrent)
            done.fire()
        }
        target.queue.sync {}  // every function has been started
        #expect(held.count == 400, "\(held.count) of 400 held functions were started")
        #expect(completions.count == 0, "completion ran while 400 functions had not called back yet")

        held.releaseAll(threads: 4, "calling back 400 times from 4 threads")
        done.wait("completion was not called within 2 s of the last of 400 callbacks")
        target.queue.sync {}
        #expect(completions.all == [true], "completion must run exactly once, on the given queue; it ran \(completions.count) times")
    }

    @Test("an empty list completes at once, on the queue")
    func emptyListCompletes() {
        let target = TestQueue()
        let onQueue = Tally<Bool>(), done = Signal()
        runAll([], queue: target.queue) {
            onQueue.append(target.isCurrent)
            done.fire()
        }
        done.wait("runAll([]) did not call completion within 2 s; with nothing to wait for it must complete right away")
        #expect(onQueue.all == [true], "completion must run once, on the given queue")
    }
}

import Chapter5BuggyCounter
import Dispatch
import Testing
import WorkbookTestSupport

@Suite("5.3 runAll(_:queue:completion:)")
struct Exercise5_3Tests {
    @Test("an empty list completes at once")
    func emptyListCompletes() {
        let target = TestQueue()
        let done = Signal()
        runAll([], queue: target.queue) { done.fire() }
        done.wait("runAll([]) did not call completion within 2 s; with nothing to wait for it must complete right away")
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
        #expect(completions.count == 0, "completion ran before every function called back")
        held.releaseAll(threads: 4, "calling back 400 times from 4 threads")
        done.wait("completion was not called within 2 s of the last callback")
        target.queue.sync {}
        #expect(completions.all == [true], "completion must run exactly once, on the given queue; it ran \(completions.count) times")
    }
}

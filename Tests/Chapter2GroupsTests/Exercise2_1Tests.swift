import Chapter2Groups
import Dispatch
import Testing
import WorkbookTestSupport

// The contract (RunAll.swift) and the tests that check each clause:
// - runAll returns at once: it calls no function itself and never waits ... completionWaitsForLateStarts
// - every function is started once, on `queue` ............................ completionWaitsForLateStarts, mixedFunctions
// - completion exactly once, on `queue`, only after every callback, however
//   the callbacks come (at once, later, from many threads at once) ......... completionWaitsForLateStarts, mixedFunctions, callbacksOnTheQueueItself (exit test)
// - completion is always scheduled on `queue`, never called inside runAll;
//   an empty list completes at once ........................................ emptyListCompletes
// - runAll never blocks `queue` while it waits ............................. callbacksOnTheQueueItself (exit test)

@Suite("2.1 runAll(_:queue:completion:)", .gradedUnderTSan)
struct Exercise2_1Tests {
    @Test("runAll returns at once; completion waits for functions that the queue starts later")
    func completionWaitsForLateStarts() {
        let target = TestQueue()
        let held = HeldCallbacks()
        let startedOnQueue = Tally<Bool>()
        let function: FunctionWithCallback = { done in
            startedOnQueue.append(target.isCurrent)
            held.work(done)
        }
        let completions = Tally<Bool>(), done = Signal()

        // The queue is busy when runAll is called, so whatever runAll sends to it runs later —
        // after runAll has returned and after `notify` has looked at the group.
        let busy = QueueHold([target.queue])
        guard callRunAll(Array(repeating: function, count: 3), on: target, "3 functions", completion: {
            completions.append(target.isCurrent)
            done.fire()
        }) else {
            busy.release()
            return
        }
        let startedEarly = startedOnQueue.count
        busy.release()
        guard settle(target, "after runAll returned") else { return }

        #expect(startedEarly == 0, """
            runAll called \(startedEarly) of the functions itself before it returned, on the caller's \
            thread; it must hand every function to `queue` (queue.async) and return at once.
            """)
        #expect(startedOnQueue.count == 3, "\(startedOnQueue.count) of 3 functions were started; runAll must start every function, once")
        #expect(startedOnQueue.all.allSatisfy { $0 }, "a function was started on another thread than `queue`; runAll must start every function on `queue`")
        #expect(completions.count == 0, """
            completion ran although no function had called back yet: when notify(queue:) looked at \
            the group, its count was zero, so it scheduled completion at once. Ask what the count \
            was at that moment; read "Where enter() goes" in the lesson.
            """)

        held.releaseAll(threads: 3, "calling back 3 functions from 3 threads")
        guard done.wait("completion was not called within 2 s of the last callback") else { return }
        settle(target, "after completion ran")
        #expect(completions.all == [true], "completion must run exactly once, on the given queue; it ran \(completions.count) times")
        #expect(completions.all.allSatisfy { $0 }, "completion ran on another thread than the given queue")
    }

    @Test("mixed functions, 400 callbacks from 4 threads at once: completion once, on the queue, after every callback")
    func mixedFunctions() {
        let target = TestQueue()
        let held = HeldCallbacks()
        let functions: [FunctionWithCallback] = [fakeWork(.synchronous), fakeWork(.asynchronous)]
            + Array(repeating: held.work, count: 400)
        let completions = Tally<Bool>(), done = Signal()

        guard callRunAll(functions, on: target, "402 functions", completion: {
            completions.append(target.isCurrent)
            done.fire()
        }) else { return }
        guard settle(target, "after runAll returned") else { return }  // every function has been started
        #expect(held.count == 400, "\(held.count) of 400 held functions were started")
        #expect(completions.count == 0, "completion ran while 400 functions had not called back yet")

        held.releaseAll(threads: 4, "calling back 400 times from 4 threads")
        guard done.wait("completion was not called within 2 s of the last of 400 callbacks") else { return }
        // releaseAll has returned, so every notify block the group will ever submit is in line now.
        settle(target, "after completion ran")
        #expect(completions.count == 1, "completion must run exactly once; it ran \(completions.count) times. Is notify registered more than once (inside the loop?), or does more than one callback decide it was the last?")
        #expect(completions.all.allSatisfy { $0 }, "completion ran on another thread than the given queue")
    }

    @Test("an empty list completes at once — on the queue, after runAll has returned")
    func emptyListCompletes() {
        let target = TestQueue()
        let returned = Tally<Bool>()
        let seen = Tally<(onQueue: Bool, afterReturn: Bool)>(), done = Signal()

        // With the queue busy, a completion that runAll schedules on it can only run once the test
        // lets the queue go on, after runAll has returned.
        let busy = QueueHold([target.queue])
        let called = callRunAll([], on: target, "[]", completion: {
            seen.append((target.isCurrent, returned.count > 0))
            done.fire()
        })
        returned.append(true)
        busy.release()
        guard called else { return }
        guard done.wait("runAll([]) did not call completion within 2 s; with nothing to wait for it must complete right away") else { return }
        settle(target, "after completion ran")
        #expect(seen.count == 1, "completion must run exactly once; it ran \(seen.count) times")
        #expect(seen.all.allSatisfy { $0.onQueue }, "with an empty list, completion ran on another thread than the given queue")
        #expect(seen.all.allSatisfy { $0.afterReturn }, """
            with an empty list, completion ran before runAll returned. Completion is always \
            scheduled on `queue` (queue.async, or notify on an empty group), never called from \
            inside runAll — callers rely on that.
            """)
    }

    @Test("functions that call back on the queue itself: before they return, or from a block they send to it")
    func callbacksOnTheQueueItself() async {
        // In a child process: an answer that calls `queue.sync` from a callback running on `queue`
        // stops the program, and only this test should fail.
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) {
            runInChild(seconds: 2) {
                let target = TestQueue()
                let viaQueue: FunctionWithCallback = { done in
                    let callback = Unchecked(done)
                    target.queue.async { callback.value() }
                }
                let cases: [(what: String, functions: [FunctionWithCallback])] = [
                    ("3 functions that call back before they return", Array(repeating: fakeWork(.synchronous), count: 3)),
                    ("3 functions that call back from a block they send to queue", Array(repeating: viaQueue, count: 3)),
                ]
                for (what, functions) in cases {
                    let completions = Tally<Bool>(), done = Signal()
                    runAll(functions, queue: target.queue) {
                        completions.append(target.isCurrent)
                        done.fire()
                    }
                    // Longer than the child's bound: no completion at all ends the child as hung.
                    guard done.happens(within: 10) else { return nil }
                    target.queue.sync {}
                    target.queue.sync {}
                    if completions.all != [true] {
                        return "with \(what), completion ran \(completions.count) times (\(completions.all.filter { !$0 }.count) of them off the queue); it must run exactly once, on the given queue"
                    }
                }
                return nil
            }
        }
        judgeChild(
            result, "runAll with functions that call back on `queue` itself (before they return, or from a block they send to queue)",
            ifItCrashed: """
                The program stopped while functions called back on `queue` itself. libdispatch traps \
                when a block running on a serial queue calls `sync` on that same queue (Apple \
                platforms print "dispatch_sync called on queue already owned by current thread"), \
                and on a `leave()` that has no `enter()` (Apple: "Unbalanced call to \
                dispatch_group_leave()"); on Linux the process just stops with SIGILL (x86-64) or \
                SIGTRAP (arm64). Find the call that waits on, or leaves, more than it should.
                """)
    }
}

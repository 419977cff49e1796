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
        let busy = QueueHold([target.queue], seconds: 1)
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

        verify(startedEarly == 0, """
            runAll called \(startedEarly) of the functions itself before it returned, on the caller's \
            thread; it must hand every function to `queue` (queue.async) and return at once.
            """)
        verify(startedOnQueue.count == 3, "\(startedOnQueue.count) of 3 functions were started; runAll must start every function, once")
        verify(startedOnQueue.all.allSatisfy { $0 }, "a function was started on another thread than `queue`; runAll must start every function on `queue`")
        verify(completions.count == 0, """
            completion ran although no function had called back yet. What was the group's count at \
            the moment notify(queue:) was called? Read "Where enter() goes" in the lesson.
            """)

        held.releaseAll(threads: 3, "calling back 3 functions from 3 threads")
        guard done.wait("completion was not called within 2 s of the last callback") else { return }
        settle(target, "after completion ran")
        verify(completions.all == [true], "completion must run exactly once, on the given queue; it ran \(completions.count) times")
        verify(completions.all.allSatisfy { $0 }, "completion ran on another thread than the given queue")
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
        verify(held.count == 400, "\(held.count) of 400 held functions were started")
        verify(completions.count == 0, "completion ran while 400 functions had not called back yet")

        held.releaseAll(threads: 4, "calling back 400 times from 4 threads")
        guard done.wait("completion was not called within 2 s of the last of 400 callbacks") else { return }
        // releaseAll has returned, so every notify block the group will ever submit is in line now.
        settle(target, "after completion ran")
        verify(completions.count == 1, "completion must run exactly once; it ran \(completions.count) times. Is notify registered more than once (inside the loop?), or does more than one callback decide it was the last?")
        verify(completions.all.allSatisfy { $0 }, "completion ran on another thread than the given queue")
    }

    @Test("an empty list completes at once — on the queue, after runAll has returned")
    func emptyListCompletes() {
        let target = TestQueue()
        expectCompletionAfterReturning(
            on: target,
            notCalled: "runAll([]) did not call completion within 2 s; with nothing to wait for it must complete right away",
            offQueue: "with an empty list, completion ran on another thread than the given queue",
            beforeReturn: """
                with an empty list, completion ran before runAll returned. Completion is always \
                scheduled on `queue` (queue.async, or notify on an empty group), never called from \
                inside runAll — callers rely on that.
                """
        ) { completion in
            callRunAll([], on: target, "[]", completion: { completion(()) })
        }
    }

    @Test("functions that call back on the queue itself: before they return, or from a block they send to it")
    func callbacksOnTheQueueItself() async {
        // In a child process: an answer that calls `queue.sync` from a callback running on `queue`
        // stops the program, and only this test should fail.
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 2, cutShort: cutShort) {
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

// The dimensions (chapter.json, "dimensions"): the same clauses, for every form of queue a caller
// may hand in, for two runAll calls at once, for every pair of operations at the same moment, for
// what the callbacks wrote before calling back, and for a callback held longer than any timed
// wait an answer might hide.
extension Exercise2_1Tests {
    static let operations = ["runAll", "callback"]

    @Test("the queue handed in: a serial queue, a concurrent queue, the caller's own queue", arguments: HandedQueue.allCases)
    func handedQueues(form: HandedQueue) async {
        // In a child process: `queue.sync` from a block already running on the caller's own queue
        // stops the program, and only this test should fail.
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [form = form as HandedQueue, cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let probe = form.make()
                let held = HeldCallbacks()
                let started = Tally<Bool>()
                let sync: FunctionWithCallback = { done in
                    started.append(probe.isCurrent)
                    done()
                }
                let viaQueue: FunctionWithCallback = { done in
                    started.append(probe.isCurrent)
                    let callback = Unchecked(done)
                    probe.queue.async { callback.value() }
                }
                let parked: FunctionWithCallback = { done in
                    started.append(probe.isCurrent)
                    held.work(done)
                }
                let functions = Unchecked([sync, viaQueue] + Array(repeating: parked, count: 100) + [sync, viaQueue])
                let completions = Tally<Bool>(), done = Signal()
                guard probe.call({
                    runAll(functions.value, queue: probe.queue) {
                        completions.append(probe.isCurrent)
                        done.fire()
                    }
                }) else {
                    return childTimedOut("runAll, called from \(form.testDescription) it was handed, did not return within 2 s; it must return at once and never wait on `queue`")
                }
                guard eventually({ held.count == 100 }) else {
                    return childTimedOut("runAll handed \(form.testDescription) had started \(held.count) of 100 held functions 2 s later; every function must be started on `queue`")
                }
                guard probe.drained() else {
                    return childTimedOut("\(form.testDescription) handed to runAll was still busy 2 s after the functions started: something waits on it")
                }
                if completions.count > 0 {
                    return "with \(form.testDescription), completion ran while 100 functions had not called back yet"
                }
                held.releaseAll(threads: 4, "calling back 100 times from 4 threads")
                guard done.happens(within: 2) else {
                    return childTimedOut("with \(form.testDescription), completion was not called within 2 s of the last callback")
                }
                guard probe.drained() else {
                    return childTimedOut("\(form.testDescription) handed to runAll was still busy 2 s after completion ran")
                }
                if started.count != 104 || !started.all.allSatisfy({ $0 }) {
                    return "with \(form.testDescription), \(started.count) of 104 functions were started, \(started.all.filter { !$0 }.count) of them off `queue`; each must be started once, on `queue`"
                }
                if completions.all != [true] {
                    return "with \(form.testDescription), completion ran \(completions.count) times (\(completions.all.filter { !$0 }.count) of them off `queue`); it must run exactly once, on `queue`"
                }
                return nil
            }
        }
        judgeHandedQueueChild(
            result, "runAll handed \(form.testDescription) (104 functions, 100 of them calling back from 4 threads at once)",
            handIn: "hand runAll", bookkeeping: "runAll's", neverWaits: "runAll must never wait", keepsSafe: "state")
    }

    @Test("completion waits for a callback held 1.6 s: a timed wait that gives up is not waiting")
    func waitsForASlowCallback() {
        let target = TestQueue()
        let held = HeldCallbacks()
        let completions = Tally<Bool>(), done = Signal()
        guard callRunAll([fakeWork(.synchronous), held.work, fakeWork(.asynchronous)], on: target, "3 functions, one slow", completion: {
            completions.append(target.isCurrent)
            done.fire()
        }) else { return }
        guard eventually({ held.count == 1 }) else {
            recordIssue("runAll did not start the held function within 2 s")
            return
        }
        if done.happens(within: 1.6) {
            recordIssue("""
                completion ran while one function had held its callback for less than 1.6 s and never \
                called back. A `wait(timeout:)` whose timing out is ignored — or only printed — goes on \
                as if everything had finished; completion must wait for every callback, however long.
                """)
            held.releaseAll(threads: 1, "calling back the slow function")
            return
        }
        held.releaseAll(threads: 1, "calling back the slow function")
        guard done.wait("completion was not called within 2 s of the slow function's callback") else { return }
        settle(target, "after completion ran")
        verify(completions.all == [true], "completion must run exactly once, on the given queue; it ran \(completions.count) times")
    }

    @Test("what each function wrote before calling back is there for completion to read")
    func completionSeesWhatCallbacksWrote() {
        let target = TestQueue()
        let held = HeldCallbacks()
        let marks = PlainMarks(8)
        // Function i writes slot i (plain memory, no lock) just before it calls back, on one of 4
        // threads. The Thread Sanitizer reports completion's reads unless every callback is
        // ordered before completion — as leave() and notify order them.
        let functions: [FunctionWithCallback] = (0..<8).map { i in
            { done in held.work { marks.mark(i); done() } }
        }
        let unmarkedSeen = Tally<Int>(), done = Signal()
        guard callRunAll(functions, on: target, "8 functions that write before calling back", completion: {
            let unmarked = marks.unmarked  // read first: nothing of the test's own orders it
            unmarkedSeen.append(unmarked)
            done.fire()
        }) else { return }
        guard settle(target, "after runAll returned"), held.count == 8 else {
            recordIssue("runAll started \(held.count) of 8 functions; it must start every function on `queue`")
            return
        }
        held.releaseAll(threads: 4, "calling back 8 functions from 4 threads")
        guard done.wait("completion was not called within 2 s of the last callback") else { return }
        settle(target, "after completion ran")
        verify(unmarkedSeen.all == [0], """
            completion ran \(unmarkedSeen.count) times and saw \(unmarkedSeen.all) callbacks' writes missing; \
            it must run once, after every callback, and see what each function wrote before calling back
            """)
    }

    @Test("two runAll calls at once, a third started from the first one's completion: each completes for its own functions")
    func twoRunAllsAtOnce() {
        let targets = (0..<3).map { TestQueue(label: "runAll \($0 + 1)") }
        let heldA = HeldCallbacks(), heldB = HeldCallbacks()
        let completions = (0..<3).map { _ in Tally<Bool>() }
        let signals = (0..<3).map { _ in Signal() }
        let thirdReturned = Tally<Bool>()

        guard callRunAll(Array(repeating: heldA.work, count: 2), on: targets[0], "the first of two, 2 functions", completion: {
            completions[0].append(targets[0].isCurrent)
            // A third runAll from inside the first one's completion, while the second still waits.
            thirdReturned.append(finishes(within: 1) {
                runAll([fakeWork(.synchronous), fakeWork(.asynchronous)], queue: targets[2].queue) {
                    completions[2].append(targets[2].isCurrent)
                    signals[2].fire()
                }
            })
            signals[0].fire()
        }) else { return }
        guard callRunAll(Array(repeating: heldB.work, count: 3), on: targets[1], "the second of two, 3 functions", completion: {
            completions[1].append(targets[1].isCurrent)
            signals[1].fire()
        }) else { return }
        guard settle(targets[0], "after the first runAll returned"), settle(targets[1], "after the second runAll returned") else { return }
        guard heldA.count == 2, heldB.count == 3 else {
            recordIssue("two runAll calls started \(heldA.count) of 2 and \(heldB.count) of 3 functions; each must start all of its own")
            return
        }

        heldA.releaseAll(threads: 2, "calling back the first runAll's 2 functions")
        guard signals[0].wait("""
            the first runAll's 2 functions had called back, but its completion did not run within 2 s \
            while a second runAll was still waiting for its own. What does one call of runAll share \
            with another?
            """) else {
            heldB.releaseAll(threads: 1, "calling back the second runAll's functions")
            return
        }
        guard signals[2].wait("a runAll started from another's completion did not complete within 2 s") else { return }
        verify(thirdReturned.all == [true], "a runAll called from inside another one's completion did not return within 1 s")
        verify(completions[1].count == 0, "the second runAll completed although none of its 3 functions had called back: its count was mixed with another call's")

        heldB.releaseAll(threads: 3, "calling back the second runAll's 3 functions")
        guard signals[1].wait("the second runAll's completion did not run within 2 s of its last callback") else { return }
        for target in targets { settle(target, "after the completions ran") }
        verify(completions.map(\.all) == [[true], [true], [true]], """
            each of three runAll calls must complete exactly once, on its own queue; they completed \
            \(completions.map(\.count)) times
            """)
    }

    @Test("every pair of operations at the same moment: runAll, and a callback of an earlier runAll", arguments: OperationPair.every(of: operations))
    func operationsOverlap(pair: OperationPair) {
        let target = TestQueue()
        let iterations = 100
        // Earlier runAll calls, 2 held functions each: every "callback" operation calls the next
        // parked callback, so two callback threads call back the two functions of one call at once.
        let earlier = iterations
        let held = Tally<Block>()
        let park: FunctionWithCallback = { done in held.append(done) }
        let completed = Tally<Int>(), all = Signal()
        for call in 0..<earlier {
            guard callRunAll([park, park], on: target, "call \(call + 1) of \(earlier), 2 held functions", completion: {
                completed.append(call)
                all.fire()
            }) else { return }
        }
        guard settle(target, "after \(earlier) runAll calls returned"), held.count == 2 * earlier else {
            recordIssue("\(earlier) runAll calls with 2 functions each started \(held.count) functions")
            return
        }
        let parked = Unchecked(held.all)
        let next = Ticket(), made = Ticket()
        let ran = overlap(pair, threads: 1, iterations: iterations) { operation, _, _ in
            if operation == "callback" {
                parked.value[next.take()]()
            } else {
                let call = earlier + made.take()
                runAll([fakeWork(.synchronous), fakeWork(.asynchronous)], queue: target.queue) {
                    completed.append(call)
                    all.fire()
                }
            }
        }
        guard ran else { return }
        // The callbacks no operation called, from this thread.
        for index in next.taken..<parked.value.count { parked.value[index]() }
        let calls = earlier + made.taken
        for _ in 0..<calls {
            guard all.wait("not every one of \(calls) runAll calls completed within 2 s of its last callback (\(completed.count) did)") else { return }
        }
        settle(target, "after the completions ran")
        let counts = Dictionary(completed.all.map { ($0, 1) }, uniquingKeysWith: +)
        verify(counts.count == calls && counts.values.allSatisfy { $0 == 1 }, """
            with \(pair.testDescription) at the same moment, \(calls) runAll calls completed \(completed.count) \
            times in all, \(counts.values.filter { $0 > 1 }.count) of them more than once; each must complete exactly once
            """)
    }
}

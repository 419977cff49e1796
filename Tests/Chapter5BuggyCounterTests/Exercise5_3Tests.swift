import Chapter5BuggyCounter
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport

// Every call into runAll is bounded (a `wait` inside it must fail one test, not hang the run), and
// the tests whose functions call back before they return, or from threads of their own, run in a
// child process: there a wrong answer can trap (`leave()` before its `enter()`, `sync` onto a queue
// already running the caller).

@Suite("5.3 runAll(_:queue:completion:)", .gradedUnderTSan)
struct Exercise5_3Tests {
    static let trapAdvice =
        "Two usual causes: `group.leave()` running before its matching `enter()` — a function may call back before it returns, while the loop is still running — or `queue.sync` onto a queue that is already running the caller (such a callback runs inside your loop, while whatever the loop holds is still held). See the pitfall under \"DispatchGroup: the counter, built in\" in the lesson."

    static let twiceTrapAdvice =
        "libdispatch stops a program that calls `leave()` on a group once more than `enter()` (on Apple platforms the crash report says \"Unbalanced call to dispatch_group_leave()\"; on Linux it just traps — libdispatch src/semaphore.c, `dispatch_group_leave`), and one that calls `leave()` before its `enter()`. Here a function calls back twice: how many times does its callback reach `leave()`?"

    @Test("an empty list completes once, on the queue, after runAll returns")
    func emptyListCompletes() {
        let probe = WorkProbe()
        let completion = Unchecked(probe.completion)
        // `queue` is busy while runAll runs: a completion sent with `async` can only run after.
        let hold = held(probe.target)
        let returned = probe.calls("runAll([], …)") {
            runAll([], queue: probe.target.queue, completion: completion.value)
        }
        hold.release()
        guard returned else { return }
        guard probe.firstCompletion() else {
            recordTimeout("runAll([]) did not call completion within 2 s; with nothing to wait for, it must complete right away. With an empty list, which line of your file could send completion — and does anything reach it?")
            return
        }
        guard drain(probe.target, "after completion") else { return }
        if let problem = probe.problemWithCompletions(of: "runAll([], …)", callbacks: 0, queueWasHeld: true) {
            recordIssue(Comment(rawValue: problem))
        }
    }

    @Test("400 functions calling back from four threads at once: completion once, on the queue, after every callback")
    func callbacksFromSeveralThreads() {
        let probe = WorkProbe()
        let functions = Unchecked([FunctionWithCallback](repeating: probe.heldWork, count: 400))
        let completion = Unchecked(probe.completion)
        let call = "runAll(<400 functions>, …)"
        guard probe.calls("\(call), with functions that had not called back yet,", {
            runAll(functions.value, queue: probe.target.queue, completion: completion.value)
        }) else {
            // runAll is waiting for the callbacks: let it go, so its thread does not stay behind.
            probe.held.releaseAll(threads: 1, "releasing the callbacks runAll waits for")
            return
        }
        let started = probe.started, elsewhere = probe.startedOnOtherThreads
        verify(started == 400, "runAll called \(started) of 400 functions by the time it returned; it must call each of them once, before returning")
        verify(elsewhere == 0, "\(elsewhere) of 400 functions were called on another thread; runAll must call them itself, on the caller's thread")
        guard drain(probe.target, "after \(call) returned") else {
            probe.held.releaseAll(threads: 1, "releasing the callbacks the blocked queue waits for")
            return
        }
        verify(probe.completions.isEmpty, """
            completion ran before any function had called back, while all 400 were still outstanding. See \
            the pitfall under "DispatchGroup: the counter, built in" in the lesson.
            """)

        probe.completesAfterHeldCallbacks(of: call, count: 400, counted: "400")
    }

    @Test("functions that call back before they return, later from their own threads, and both mixed")
    func synchronousAndAsynchronousCallbacks() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let lists: [(String, [CallbackStyle])] = [
                    ("1 function that calls back before it returns", [.synchronous]),
                    ("3 functions that call back before they return", [.synchronous, .synchronous, .synchronous]),
                    ("5 functions that call back from threads of their own", Array(repeating: .asynchronous, count: 5)),
                    ("a mix of 6 functions, calling back before they return or from threads of their own",
                     [.synchronous, .asynchronous, .synchronous, .asynchronous, .asynchronous, .synchronous]),
                ]
                for (name, styles) in lists {
                    let probe = WorkProbe()
                    let hold = held(probe.target)
                    probe.callerIsCurrentThread()
                    runAll(styles.map { probe.work($0) }, queue: probe.target.queue, completion: probe.completion)
                    probe.callReturned()
                    hold.release()
                    let call = "runAll with \(name)"
                    guard probe.firstCompletion() else { return "\(call) never ran completion (waited 2 s)" }
                    guard probe.callbacksFinished(styles.count) else { return "\(call): the callbacks did not all return within 2 s; something in them blocks" }
                    guard drained(probe.target) else { return "\(call): `queue` stayed busy; something sent to it blocks it" }
                    if let problem = probe.problemWithCompletions(of: call, callbacks: styles.count, queueWasHeld: true) { return problem }
                }
                return nil
            }
        }
        judgeChild(result, "runAll ran functions that call back before they return or from other threads", ifItCrashed: Self.trapAdvice)
    }

    // MARK: - A function that calls back more than once

    @Test("a function that calls back twice before it returns, beside one that has not called back: completion waits for the other, runs once, and later callbacks change nothing")
    func aFunctionCallsBackTwice() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let probe = HandedQueue.serial.make(label: "workbook.handed-queue")
                let completions = Tally<Bool>()
                let firstCallbacks = Tally<Unchecked<() -> Void>>(), parked = Tally<Unchecked<() -> Void>>()
                let twice: FunctionWithCallback = { done in
                    firstCallbacks.append(Unchecked(done))
                    done()
                    done()
                }
                let later: FunctionWithCallback = { done in parked.append(Unchecked(done)) }
                let functions = Unchecked([twice, later])
                let call = "runAll([a function that calls back twice before it returns, a function that calls back later], …)"
                guard finishes(within: 2, { runAll(functions.value, queue: probe.queue) { completions.append(probe.isCurrent) } }) else {
                    return childTimedOut("\(call) did not return within 2 s")
                }
                guard probe.drained() else { return childTimedOut("\(call): `queue` stayed busy for 2 s after it returned") }
                if !completions.all.isEmpty {
                    return "\(call) ran completion while the second function had not called back yet. How many functions had called back by then — and how many callbacks?"
                }
                guard let second = parked.all.first, parked.count == 1 else { return "\(call) called the second function \(parked.count) times; it must call it once" }
                second.value()
                let deadline = DispatchTime.now() + 2
                while completions.all.isEmpty && DispatchTime.now() < deadline { usleep(2_000) }
                guard !completions.all.isEmpty else { return childTimedOut("\(call) did not run completion within 2 s of the second function's callback") }
                // Later callbacks of both functions, after completion: nothing may change.
                firstCallbacks.all.first?.value()
                second.value()
                guard probe.drained() else { return childTimedOut("\(call): `queue` stayed busy for 2 s after more callbacks") }
                if completions.count != 1 { return "\(call) ran completion \(completions.count) times: once after the second function's callback, again after later callbacks" }
                if completions.all != [true] { return "\(call) ran completion somewhere other than the queue handed in" }
                return nil
            }
        }
        judgeChild(result, "runAll with a function that calls back twice", ifItCrashed: Self.twiceTrapAdvice)
    }

    @Test("a function's two callbacks from two threads, one after the other with nothing of the test's ordering them: completion once, after the other function, and no data race")
    func twoCallbacksFromTwoThreads() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                for round in 0..<20 {
                    let probe = HandedQueue.serial.make(label: "workbook.handed-queue")
                    let completions = Tally<Bool>()
                    let parked = Tally<Unchecked<() -> Void>>()
                    let park: FunctionWithCallback = { done in parked.append(Unchecked(done)) }
                    let functions = Unchecked([park, park])
                    let call = "runAll with two functions, the first calling back from two threads"
                    guard finishes(within: 2, { runAll(functions.value, queue: probe.queue) { completions.append(probe.isCurrent) } }) else {
                        return childTimedOut("\(call) did not return within 2 s")
                    }
                    guard parked.count == 2 else { return "\(call) called \(parked.count) functions of 2" }
                    let first = parked.all[0], second = parked.all[1]
                    // The second thread starts once the first has called back: only the flag, which
                    // the Thread Sanitizer does not see as ordering, tells it when.
                    let firstDone = Flag(), secondDone = Signal(), firstReturned = Signal()
                    startThread { first.value(); firstDone.set(true); firstReturned.fire() }
                    startThread {
                        let deadline = DispatchTime.now() + 2
                        while !firstDone.value && DispatchTime.now() < deadline { usleep(100) }
                        first.value()
                        secondDone.fire()
                    }
                    guard firstReturned.happens(within: 2), secondDone.happens(within: 2) else {
                        return childTimedOut("\(call): a callback did not return within 2 s")
                    }
                    guard probe.drained() else { return childTimedOut("\(call): `queue` stayed busy for 2 s") }
                    if !completions.all.isEmpty {
                        return "\(call) (round \(round + 1)): completion ran while the second function had not called back yet"
                    }
                    second.value()
                    let deadline = DispatchTime.now() + 2
                    while completions.all.isEmpty && DispatchTime.now() < deadline { usleep(2_000) }
                    guard probe.drained() else { return childTimedOut("\(call): `queue` stayed busy for 2 s") }
                    if completions.count != 1 || completions.all != [true] {
                        return "\(call) (round \(round + 1)): completion ran \(completions.count) times\(completions.all.contains(false) ? ", not always on the queue handed in" : ""), after both functions had called back"
                    }
                }
                return nil
            }
        }
        judgeChild(result, "runAll with a function calling back from two threads", ifItCrashed: Self.twiceTrapAdvice)
    }

    @Test("the last two callbacks arrive at the same moment: completion still runs exactly once")
    func lastCallbacksTogether() {
        let calls = CollidingCalls(
            call: "runAll(<2 functions>, …)", piece: "function",
            startedWrongly: { started, rounds in "\(rounds) calls of runAll with 2 functions called \(started) functions; each call must call both" },
            collided: "the two functions given to runAll called back")
        lastTwoCallbacksTogether(calls) { _, park, queue, completion in
            runAll([park, park], queue: queue, completion: completion)
        }
    }

    // MARK: - Dimensions (issue 15; chapter.json says which test covers which)

    /// Which exercise this suite grades: its dimension tests below are `CompletionExercise`'s, run
    /// on ``call``.
    static let exercise = CompletionExercise.runAll

    /// runAll as the dimension tests call it.
    static let call = CompletionCall(name: { "runAll(<\($0) functions>, …)" }, piece: "function", clauses: CompletionClauses(
        returns: "`runAll` calls each function exactly once, itself, on the caller's thread, and returns without waiting for the callbacks: it never blocks its caller, nor `queue`.",
        once: "`completion` runs exactly once, on `queue`, and only after every function has called back.",
        sentAsynchronously: "It is sent there asynchronously: never called from inside `runAll`, nor with `queue.sync`.",
        ownPiecesOnly: "Calls made at the same time, or from a completion, each wait for their own functions only.",
        repeats: "A function may call back more than once (a service that retries, say), from any thread, even from two at the same moment. Only its first callback counts; a later one changes nothing.",
        nothingToWaitFor: "An empty list has nothing to wait for: `completion` is sent to `queue` at once — still once, still asynchronously, exactly as it arrives for a non-empty list (never called inline)."
    )) { pieces, queue, completion in
        runAll(pieces, queue: queue, completion: completion)
    }

    @Test("`queue` serial, concurrent, or the caller's own: completion once, on it, after every callback", arguments: HandedQueue.allCases.map(\.rawValue))
    func everyHandedQueue(_ form: String) async {
        await Self.exercise.everyHandedQueue(form)
    }

    @Test("completion sees what every function's callback wrote before calling back", arguments: HandedQueue.allCases.map(\.rawValue))
    func completionSeesTheCallbacksWork(_ form: String) async {
        await Self.exercise.completionSeesTheCallbacksWork(form)
    }

    @Test("two calls at once keep their own counts, and a call started from a completion completes")
    func twoCallsAtOnce() async {
        await Self.exercise.twoCallsAtOnce()
    }

    @Test("a function whose callback takes 1.6 s: completion waits for it")
    func waitsForASlowCallback() async {
        await Self.exercise.waitsForASlowCallback()
    }

    @Test("every pair of operations at the same moment: new calls, callbacks of earlier calls", arguments: OperationPair.every(of: CompletionDimensions.operations))
    func everyPairAtOnce(_ pair: OperationPair) {
        Self.exercise.everyPairAtOnce(pair)
    }
}

import Chapter5BuggyCounter
import Dispatch
import Testing
import WorkbookTestSupport

// Every call into runAll is bounded (a `wait` inside it must fail one test, not hang the run), and
// the tests whose functions call back before they return, or from threads of their own, run in a
// child process: there a wrong answer can trap (`leave()` before its `enter()`, `sync` onto a queue
// already running the caller).

@Suite("5.3 runAll(_:queue:completion:)", .gradedUnderTSan)
struct Exercise5_3Tests {
    static let trapAdvice =
        "Two usual causes: `group.leave()` running before its matching `enter()` — a function may call back before it returns, while the loop is still running — or `queue.sync` onto a queue that is already running the caller (such a callback runs inside your loop, while whatever the loop holds is still held). See the pitfall under \"DispatchGroup\" in the lesson."

    @Test("an empty list completes once, on the queue, after runAll returns")
    func emptyListCompletes() {
        let probe = WorkProbe()
        let completion = Unchecked(probe.completion)
        // `queue` is busy while runAll runs: a completion sent with `async` can only run after.
        let hold = QueueHold(probe.target)
        let returned: Void? = bounded("runAll([], …)") {
            probe.callerIsCurrentThread()
            runAll([], queue: probe.target.queue, completion: completion.value)
            probe.callReturned()
        }
        hold.release()
        guard returned != nil else { return }
        guard probe.firstCompletion() else {
            recordTimeout("runAll([]) did not call completion within 2 s; with nothing to wait for it must complete right away. Code that completes only from inside a callback never gets there, because no callback comes (and a `notify` registered inside the loop is never registered).")
            return
        }
        guard drain(probe.target, "after completion") else { return }
        if let problem = probe.problemWithCompletions(of: "runAll([], …)", callbacks: 0, queueWasHeld: true) {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test("400 functions calling back from four threads at once: completion once, on the queue, after every callback")
    func callbacksFromSeveralThreads() {
        let probe = WorkProbe()
        let functions = Unchecked([FunctionWithCallback](repeating: probe.heldWork, count: 400))
        let completion = Unchecked(probe.completion)
        let call = "runAll(<400 functions>, …)"
        let returned: Void? = bounded("\(call), with functions that had not called back yet,") {
            probe.callerIsCurrentThread()
            runAll(functions.value, queue: probe.target.queue, completion: completion.value)
            probe.callReturned()
        }
        guard returned != nil else {
            // runAll is waiting for the callbacks: let it go, so its thread does not stay behind.
            probe.held.releaseAll(threads: 1, "releasing the callbacks runAll waits for")
            return
        }
        let started = probe.started, elsewhere = probe.startedOnOtherThreads
        #expect(started == 400, "runAll called \(started) of 400 functions by the time it returned; it must call each of them once, before returning")
        #expect(elsewhere == 0, "\(elsewhere) of 400 functions were called on another thread; runAll must call them itself, on the caller's thread")
        guard drain(probe.target, "after \(call) returned") else {
            probe.held.releaseAll(threads: 1, "releasing the callbacks the blocked queue waits for")
            return
        }
        #expect(probe.completions.isEmpty, """
            completion ran before any function had called back, while all 400 were still outstanding. See \
            the pitfall under "DispatchGroup" in the lesson.
            """)

        guard probe.held.releaseAll(threads: 4, "calling back 400 times from 4 threads") else { return }
        guard probe.firstCompletion() else {
            recordTimeout("\(call): completion was not called within 2 s of the last of 400 callbacks (made from 4 threads at once)")
            return
        }
        guard drain(probe.target, "after completion") else { return }
        if let problem = probe.problemWithCompletions(of: call, callbacks: 400) { Issue.record(Comment(rawValue: problem)) }
    }

    @Test("functions that call back before they return, later from their own threads, and both mixed")
    func synchronousAndAsynchronousCallbacks() async {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
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
                    let hold = QueueHold(probe.target)
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

    /// runAll as the dimension tests call it.
    static let call = CompletionCall(name: { "runAll(<\($0) functions>, …)" }, piece: "function", clauses: CompletionClauses(
        returns: "`runAll` calls each function exactly once, itself, on the caller's thread, and returns without waiting for the callbacks: it never blocks its caller, nor `queue`.",
        once: "`completion` runs exactly once, on `queue`, and only after every function has called back.",
        sentAsynchronously: "It is sent there asynchronously: never called from inside `runAll`, nor with `queue.sync`.",
        ownPiecesOnly: "Calls made at the same time, or from a completion, each wait for their own functions only.",
        nothingToWaitFor: "An empty list has nothing to wait for: `completion` is sent to `queue` at once — still once, still asynchronously, exactly as it arrives for a non-empty list (never called inline)."
    )) { pieces, queue, completion in
        runAll(pieces, queue: queue, completion: completion)
    }

    @Test("`queue` serial, concurrent, or the caller's own: completion once, on it, after every callback", arguments: HandedQueue.allCases.map(\.rawValue))
    func everyHandedQueue(_ form: String) async {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) { [form, cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) { CompletionDimensions.scenarios(Self.call, on: HandedQueue(rawValue: form)!) }
        }
        judgeChild(result, "runAll with `queue` \(HandedQueue(rawValue: form)!.testDescription)", ifItCrashed: Self.trapAdvice)
    }

    @Test("completion sees what every function's callback wrote before calling back", arguments: HandedQueue.allCases.map(\.rawValue))
    func completionSeesTheCallbacksWork(_ form: String) async {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) { [form, cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) { CompletionDimensions.callbackWorkIsVisible(Self.call, on: HandedQueue(rawValue: form)!) }
        }
        judgeChild(result, "completion read what each function's thread wrote just before calling back (`queue`: \(HandedQueue(rawValue: form)!.testDescription)). Nothing but runAll orders those writes before completion: the last callback must see every other callback's work — a DispatchGroup, a lock or a serial queue does; a `.relaxed` atomic count does not (see \"Bug one: the race\" in the lesson)", ifItCrashed: Self.trapAdvice)
    }

    @Test("two calls at once keep their own counts, and a call started from a completion completes")
    func twoCallsAtOnce() async {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) { CompletionDimensions.twoCallsAtOnce(Self.call) }
        }
        judgeChild(result, "two calls of runAll at once, and a third started from the first one's completion", ifItCrashed: Self.trapAdvice)
    }

    @Test("a function whose callback takes 1.6 s: completion waits for it")
    func waitsForASlowCallback() async {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) { CompletionDimensions.waitsForASlowCallback(Self.call) }
        }
        judgeChild(result, "runAll with one function's callback held back 1.6 s", ifItCrashed: Self.trapAdvice)
    }

    @Test("every pair of operations at the same moment: new calls, callbacks of earlier calls", arguments: OperationPair.every(of: CompletionDimensions.operations))
    func everyPairAtOnce(_ pair: OperationPair) {
        CompletionDimensions.everyPairAtOnce(Self.call, pair)
    }
}

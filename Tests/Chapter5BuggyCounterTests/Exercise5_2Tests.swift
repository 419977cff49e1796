import Chapter5BuggyCounter
import Dispatch
import Testing
import WorkbookTestSupport

// Every call into performAll is bounded (a `wait` inside it must fail one test, not hang the run),
// and the tests whose callbacks come before `work` returns, or from threads of their own, run in a
// child process: there a wrong answer can trap (`leave()` before its `enter()`, `sync` onto a queue
// already running the caller).

@Suite("5.2 performAll(times:work:queue:completion:)", .gradedUnderTSan)
struct Exercise5_2Tests {
    static let trapAdvice =
        "Two usual causes: `group.leave()` running before its matching `enter()` — a callback can come before `work` returns, while the loop is still running — or `queue.sync` onto a queue that is already running the caller (such a callback runs inside your loop). A loop over `1..<times` traps too when `times` is 0. See the pitfall under \"DispatchGroup: the counter, built in\" in the lesson."

    @Test("callbacks from four threads at once: completion runs once, on the queue, after all of them")
    func callbacksFromSeveralThreads() {
        let probe = WorkProbe()
        let work = Unchecked(probe.heldWork), completion = Unchecked(probe.completion)
        let call = "performAll(times: 2 000, …)"
        guard probe.calls("\(call), with work that had not called back yet,", {
            performAll(times: 2_000, work: work.value, queue: probe.target.queue, completion: completion.value)
        }) else {
            // performAll is waiting for the callbacks: let it go, so its thread does not stay behind.
            probe.held.releaseAll(threads: 1, "releasing the callbacks performAll waits for")
            return
        }
        let started = probe.started, elsewhere = probe.startedOnOtherThreads
        let oneShort = started == 1_999
            ? ". One short: does the loop's range start at 1? (The book's own group loop does; see \"A third slip, in the book itself\" in the lesson.)"
            : ""
        verify(started == 2_000, Comment(rawValue: "performAll started work \(started) times by the time it returned; it must call `work` 2 000 times, before returning" + oneShort))
        verify(elsewhere == 0, "\(elsewhere) of 2 000 pieces of work were started on another thread; performAll must call `work` itself, on the caller's thread")
        guard drain(probe.target, "after \(call) returned") else {
            probe.held.releaseAll(threads: 1, "releasing the callbacks the blocked queue waits for")
            return
        }
        verify(probe.completions.isEmpty, "completion ran before any work had called back, while all 2 000 pieces were still outstanding. Follow the count through a `work` that calls back before it returns: the second interleaving that Exercise 5.2 in the lesson asks you to write down.")

        probe.completesAfterHeldCallbacks(of: call, count: 2_000, counted: "2 000")
    }

    @Test("work that calls back before it returns")
    func synchronousCallbacks() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                for times in [1, 2, 3, 10] {
                    let probe = WorkProbe()
                    let hold = held(probe.target)
                    probe.callerIsCurrentThread()
                    performAll(times: times, work: probe.work(.synchronous), queue: probe.target.queue, completion: probe.completion)
                    probe.callReturned()
                    hold.release()
                    let call = "performAll(times: \(times), …) with \(times) callbacks made before `work` returned,"
                    guard probe.firstCompletion() else { return "\(call) never ran completion (waited 2 s)" }
                    guard drained(probe.target) else { return "\(call): `queue` stayed busy; something sent to it blocks it" }
                    if let problem = probe.problemWithCompletions(of: call, callbacks: times, queueWasHeld: true) { return problem }
                }
                return nil
            }
        }
        judgeChild(result, "performAll ran work that calls back before it returns", ifItCrashed: Self.trapAdvice)
    }

    @Test("work that calls back later, from other threads")
    func asynchronousCallbacks() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let probe = WorkProbe()
                let call = "performAll(times: 20, …) with work that calls back from threads of its own"
                probe.callerIsCurrentThread()
                performAll(times: 20, work: probe.work(.asynchronous), queue: probe.target.queue, completion: probe.completion)
                probe.callReturned()
                guard probe.firstCompletion() else { return "\(call) did not run completion within 2 s" }
                guard probe.callbacksFinished(20) else { return "\(call): the callbacks did not all return within 2 s; something in them blocks" }
                guard drained(probe.target) else { return "\(call): `queue` stayed busy; something sent to it blocks it" }
                return probe.problemWithCompletions(of: call, callbacks: 20)
            }
        }
        judgeChild(result, "performAll ran work that calls back from other threads", ifItCrashed: Self.trapAdvice)
    }

    @Test("times: 0 completes once, on the queue, after performAll returns")
    func zeroTimes() {
        let probe = WorkProbe()
        let work = Unchecked(probe.heldWork), completion = Unchecked(probe.completion)
        let call = "performAll(times: 0, …)"
        // `queue` is busy while performAll runs: a completion sent with `async` can only run after.
        let hold = held(probe.target)
        let returned = probe.calls(call) {
            performAll(times: 0, work: work.value, queue: probe.target.queue, completion: completion.value)
        }
        hold.release()
        guard returned else { return }
        let started = probe.started
        verify(started == 0, "\(call) started work \(started) times")
        guard probe.firstCompletion() else {
            recordTimeout("\(call) did not call completion within 2 s. With nothing to wait for, completion must be sent to `queue` at once — code that completes only from inside a callback never gets there, because no callback comes (and a `notify` registered inside the loop is never registered).")
            return
        }
        guard drain(probe.target, "after completion") else { return }
        if let problem = probe.problemWithCompletions(of: call, callbacks: 0, queueWasHeld: true) { recordIssue(Comment(rawValue: problem)) }
    }

    @Test("the last two callbacks arrive at the same moment: completion still runs exactly once")
    func lastCallbacksTogether() {
        let calls = CollidingCalls(
            call: "performAll(times: 2, …)", piece: "work",
            startedWrongly: { started, rounds in "\(rounds) calls of performAll(times: 2, …) started work \(started) times; each must call `work` twice" },
            collided: "the two callbacks of performAll(times: 2, …) came")
        lastTwoCallbacksTogether(calls) { _, park, queue, completion in
            performAll(times: 2, work: park, queue: queue, completion: completion)
        }
    }

    // MARK: - Dimensions (issue 15; chapter.json says which test covers which)

    /// Which exercise this suite grades: its dimension tests below are `CompletionExercise`'s, run
    /// on ``call``.
    static let exercise = CompletionExercise.performAll

    /// performAll as the dimension tests call it: each call of `work` runs the next piece.
    static let call = CompletionCall(name: { "performAll(times: \($0), …)" }, piece: "work", clauses: CompletionClauses(
        returns: "`performAll` calls `work` exactly `times` times, itself, on the caller's thread, and returns without waiting for the callbacks: it never blocks its caller, nor `queue`.",
        once: "`completion` runs exactly once, on `queue`, and only after every callback has been made.",
        sentAsynchronously: "It is sent there asynchronously: never called from inside `performAll`, nor with `queue.sync`.",
        ownPiecesOnly: "Calls made at the same time, or from a completion, each wait for their own work only.",
        nothingToWaitFor: "`times: 0` has nothing to wait for: `completion` is sent to `queue` at once — still once, still asynchronously."
    )) { pieces, queue, completion in
        let next = NextIndex()
        performAll(times: pieces.count, work: { done in
            if let index = next.take(below: pieces.count) { pieces[index](done) }
        }, queue: queue, completion: completion)
    }

    @Test("`queue` serial, concurrent, or the caller's own: completion once, on it, after every callback", arguments: HandedQueue.allCases.map(\.rawValue))
    func everyHandedQueue(_ form: String) async {
        await Self.exercise.everyHandedQueue(form)
    }

    @Test("completion sees what every callback's work wrote before calling back", arguments: HandedQueue.allCases.map(\.rawValue))
    func completionSeesTheCallbacksWork(_ form: String) async {
        await Self.exercise.completionSeesTheCallbacksWork(form)
    }

    @Test("two calls at once keep their own counts, and a call started from a completion completes")
    func twoCallsAtOnce() async {
        await Self.exercise.twoCallsAtOnce()
    }

    @Test("a callback that takes 1.6 s: completion waits for it")
    func waitsForASlowCallback() async {
        await Self.exercise.waitsForASlowCallback()
    }

    @Test("every pair of operations at the same moment: new calls, callbacks of earlier calls", arguments: OperationPair.every(of: CompletionDimensions.operations))
    func everyPairAtOnce(_ pair: OperationPair) {
        Self.exercise.everyPairAtOnce(pair)
    }
}

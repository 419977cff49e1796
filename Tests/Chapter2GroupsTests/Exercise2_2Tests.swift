import Chapter2Groups
import Dispatch
import Testing
import WorkbookTestSupport

// The contract (ApplicationContext.swift) and the tests that check each clause:
// - both requests start before the call returns, neither waits for the other ... waitsForBothAnswers
// - the call never blocks its caller ........................................... every test (bounded calls), waitsForBothAnswers
// - the context is delivered exactly once, on `queue`, after both answers,
//   whichever comes first ..................................................... waitsForBothAnswers, answerStyles, answersOnTwoThreadsAtOnce
// - answers may come before the call returns, later, or on two threads at
//   once: no data race, and the context pairs the answers of the same fetch ... answersOnTwoThreadsAtOnce, answerStyles
// - every clause, in generated scenarios (1 to 30 fetches on every kind of queue, the main and a
//   global one too, called from anywhere, the queue itself too; answers five ways, held ones on two
//   threads at once; 0, 1 or many friends; completions that fetch again): explored
//   (Exercise2_2Tests+Explored.swift)

@Suite("2.2 fetchApplicationContext(friends:steps:queue:completion:)", .gradedUnderTSan)
struct Exercise2_2Tests {
    @Test("500 fetches answered from two threads that nothing orders: one brings the friends, the other the steps")
    func answersOnTwoThreadsAtOnce() {
        let target = TestQueue()
        let fetches = HeldFetches(500)

        guard answer("500 calls of fetchApplicationContext, whose services have not answered yet,", {
            fetches.make(queue: target.queue) { target.isCurrent }
        }) else { return }
        let asked = fetches.asked()
        guard asked.onceEach else {
            recordIssue("\(asked.counted) before the services answered; every fetch must ask each service once, both at the start")
            return
        }

        // Every fetch gets its two answers on two threads that nothing orders. The friends all go out
        // first; the steps thread waits for that through an unordered hand-off (no happens-before
        // edge for the Thread Sanitizer), then answers last to first. So the first steps answer meets
        // a friends answer TSan cannot order, in every run, however the threads are scheduled —
        // and no two answers of one fetch ever touch its state at the same moment, so a shared
        // dictionary is reported, not corrupted for real.
        let friendsAnswered = UnorderedHandOff()
        runConcurrently(threads: 2, iterations: fetches.count, "answering 500 fetches from 2 threads") { thread, i in
            if thread == 0 {
                asked.friends[i](["friend \(i)"])
                if i == fetches.count - 1 { friendsAnswered.mark() }
            } else {
                if i == 0 { friendsAnswered.wait(seconds: 3) }
                let j = fetches.count - 1 - i
                asked.steps[j](j)
            }
        }
        for _ in 0..<fetches.count {
            guard fetches.arrived.wait("not every fetch delivered its context within 2 s of both answers") else { return }
        }
        settle(target, "after the contexts were delivered")

        let got = fetches.contexts
        verify(got.count == fetches.count, "\(fetches.count) fetches delivered \(got.count) contexts; each must deliver exactly one")
        verify(got == fetches.expected, "some contexts did not carry the friends and the steps of the same fetch")
        verify(fetches.delivered.all.allSatisfy { $0.onQueue }, "a context was delivered on another thread than the given queue")
    }

    @Test("services that answer at once or later, from another thread", arguments: CallbackStyle.allCases, CallbackStyle.allCases)
    func answerStyles(friendsStyle: CallbackStyle, stepsStyle: CallbackStyle) {
        let target = TestQueue()
        let delivered = Tally<(context: ApplicationContext, onQueue: Bool)>(), arrived = Signal()
        guard callFetch(
            FakeFriendService(names: ["Ana", "Bo"], style: friendsStyle),
            FakeStepsService(count: 8_024, style: stepsStyle),
            on: target, "friends answer \(friendsStyle), steps \(stepsStyle)",
            completion: { context in
                delivered.append((context, target.isCurrent))
                arrived.fire()
            }
        ) else { return }
        guard arrived.wait("the context was not delivered within 2 s of both answers") else { return }
        settle(target, "after the context was delivered")
        verify(delivered.all.map { $0.context } == [ApplicationContext(friends: ["Ana", "Bo"], steps: 8_024)], "expected one context with both answers; got \(delivered.all.map { $0.context })")
        verify(delivered.all.allSatisfy { $0.onQueue }, "the context must be delivered on the given queue")
    }

    @Test("both requests start at once, and delivery waits for the second answer", arguments: [true, false])
    func waitsForBothAnswers(friendsFirst: Bool) {
        let target = TestQueue()
        let friends = HeldFriendService(), steps = HeldStepsService()
        let delivered = Tally<(context: ApplicationContext, onQueue: Bool)>(), arrived = Signal()
        guard callFetch(friends, steps, on: target, "services that answer only when the test says so", completion: { context in
            delivered.append((context, target.isCurrent))
            arrived.fire()
        }) else { return }
        guard let answerFriends = friends.requests.all.first, let answerSteps = steps.requests.all.first else {
            recordIssue("both services must be asked before fetchApplicationContext returns (asked friends \(friends.requests.count)×, steps \(steps.requests.count)×); the requests run at the same time, not one after the other")
            return
        }
        let first = friendsFirst ? "the friends' answer" : "the steps' answer"
        let second = friendsFirst ? "the steps' answer" : "the friends' answer"

        guard answer("answering with \(first)", { friendsFirst ? answerFriends(["Ana"]) : answerSteps(12) }) else { return }
        guard settle(target, "after \(first)") else { return }
        verify(delivered.count == 0, "a context was delivered with only \(first) in; it must wait for both")

        guard answer("answering with \(second)", { friendsFirst ? answerSteps(12) : answerFriends(["Ana"]) }) else { return }
        guard arrived.wait("the context was not delivered within 2 s of the second answer") else { return }
        settle(target, "after the context was delivered")
        verify(delivered.all.map(\.context) == [ApplicationContext(friends: ["Ana"], steps: 12)], "expected exactly one context with both answers; got \(delivered.all.map(\.context))")
        verify(delivered.all.allSatisfy { $0.onQueue }, "the context must be delivered on the given queue")
    }
}

// The dimensions (chapter.json, "dimensions"): every form of queue a caller may hand in, an answer
// held longer than any timed wait an answer might hide, two fetches at once (one started from the
// other's completion), and every pair of operations at the same moment.
extension Exercise2_2Tests {
    static let operations = ["fetch", "friends answer", "steps answer"]

    @Test("the queue handed in: a serial queue, a concurrent queue, the caller's own queue", arguments: HandedQueue.allCases)
    func handedQueues(form: HandedQueue) async {
        // In a child process: `queue.sync` from a block already running on the caller's own queue
        // stops the program, and only this test should fail.
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [form = form as HandedQueue, cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let probe = form.make()
                let fetches = HeldFetches(50)
                guard probe.call({ fetches.make(queue: probe.queue) { probe.isCurrent } }) else {
                    return childTimedOut("\(fetches.count) calls of fetchApplicationContext, made from \(form.testDescription) they were handed, did not return within 2 s; each must return at once and never wait on `queue`")
                }
                let asked = fetches.asked()
                guard asked.onceEach else {
                    return "with \(form.testDescription), \(asked.counted) before returning; each must ask both services once, at the start"
                }
                guard probe.drained() else {
                    return childTimedOut("\(form.testDescription) handed to fetchApplicationContext was still busy 2 s later: something waits on it")
                }
                if fetches.delivered.count > 0 {
                    return "with \(form.testDescription), a context was delivered before any service had answered"
                }
                // Fetch i's friends answer on one thread, its steps answer on another, at once.
                guard gatedThreads(threads: 2, iterations: fetches.count, seconds: 3, { thread, i in
                    if thread == 0 { asked.friends[i](["friend \(i)"]) } else { asked.steps[i](i) }
                }) else {
                    return childTimedOut("with \(form.testDescription), answering \(fetches.count) fetches from 2 threads did not finish within 3 s: an answer's callback blocks")
                }
                for _ in 0..<fetches.count where !fetches.arrived.happens(within: 2) {
                    return childTimedOut("with \(form.testDescription), not every fetch delivered its context within 2 s of both answers (\(fetches.delivered.count) of \(fetches.count) did)")
                }
                guard probe.drained() else {
                    return childTimedOut("\(form.testDescription) handed to fetchApplicationContext was still busy 2 s after the contexts were delivered")
                }
                let got = fetches.delivered.all
                if got.count != fetches.count || fetches.contexts != fetches.expected {
                    return "with \(form.testDescription), \(fetches.count) fetches delivered \(got.count) contexts; each must deliver exactly one, with the friends and the steps of that same fetch"
                }
                if !got.allSatisfy(\.onQueue) {
                    return "with \(form.testDescription), \(got.filter { !$0.onQueue }.count) contexts were delivered off `queue`; each must be delivered on the queue handed in"
                }
                return nil
            }
        }
        judgeHandedQueueChild(
            result, "fetchApplicationContext handed \(form.testDescription) (50 fetches, answered from 2 threads at once)",
            handIn: "hand in", bookkeeping: "the fetch's", neverWaits: "the fetch must never wait", keepsSafe: "state")
    }

    @Test("delivery waits for an answer held 1.6 s: a timed wait that gives up is not waiting", arguments: [true, false])
    func waitsForASlowAnswer(friendsSlow: Bool) {
        let target = TestQueue()
        let friends = HeldFriendService(), steps = HeldStepsService()
        let delivered = Tally<ApplicationContext>(), arrived = Signal()
        guard callFetch(friends, steps, on: target, "services that answer only when the test says so", completion: { context in
            delivered.append(context)
            arrived.fire()
        }) else { return }
        guard let answerFriends = friends.requests.all.first, let answerSteps = steps.requests.all.first else {
            recordIssue("both services must be asked before fetchApplicationContext returns (asked friends \(friends.requests.count)×, steps \(steps.requests.count)×)")
            return
        }
        let slow = friendsSlow ? "the friends service" : "the steps service"
        guard answer("answering with the \(friendsSlow ? "steps" : "friends")", { friendsSlow ? answerSteps(12) : answerFriends(["Ana"]) }) else { return }
        if arrived.happens(within: 1.6) {
            recordIssue("""
                a context (\(delivered.all)) was delivered while \(slow) had not answered for less than \
                1.6 s. A `wait(timeout:)` whose timing out is ignored — or only printed — goes on as if \
                both had answered; the context must wait for both answers, however long they take.
                """)
            _ = answer("the late answer", { friendsSlow ? answerFriends(["Ana"]) : answerSteps(12) })
            return
        }
        guard answer("answering late, with \(slow)", { friendsSlow ? answerFriends(["Ana"]) : answerSteps(12) }) else { return }
        guard arrived.wait("the context was not delivered within 2 s of the late answer") else { return }
        settle(target, "after the context was delivered")
        verify(delivered.all == [ApplicationContext(friends: ["Ana"], steps: 12)], "expected exactly one context with both answers; got \(delivered.all)")
    }

    @Test("two fetches at once, a third started from the first one's completion: each delivers its own answers")
    func twoFetchesAtOnce() {
        let targets = (0..<3).map { TestQueue(label: "fetch \($0 + 1)") }
        let friends = (0..<2).map { _ in HeldFriendService() }, steps = (0..<2).map { _ in HeldStepsService() }
        let delivered = (0..<3).map { _ in Tally<(context: ApplicationContext, onQueue: Bool)>() }
        let arrived = (0..<3).map { _ in Signal() }
        let thirdReturned = Tally<Bool>()
        for n in 0..<2 {
            guard callFetch(friends[n], steps[n], on: targets[n], "fetch \(n + 1) of 2", completion: { context in
                delivered[n].append((context, targets[n].isCurrent))
                if n == 0 {
                    // A third fetch from inside the first one's completion, while the second waits.
                    thirdReturned.append(finishes(within: 1) {
                        fetchApplicationContext(
                            friends: FakeFriendService(names: ["Cy"], style: .asynchronous),
                            steps: FakeStepsService(count: 3, style: .synchronous), queue: targets[2].queue
                        ) { context in
                            delivered[2].append((context, targets[2].isCurrent))
                            arrived[2].fire()
                        }
                    })
                }
                arrived[n].fire()
            }) else { return }
        }
        let requests = (0..<2).map { n in (friends[n].requests.all.first, steps[n].requests.all.first) }
        guard let f0 = requests[0].0, let s0 = requests[0].1, let f1 = requests[1].0, let s1 = requests[1].1 else {
            recordIssue("each of two fetches must ask both of its services before it returns")
            return
        }
        let answers = Unchecked((f0, s0, f1, s1))
        // The first fetch's answers, and the second one's friends; the second one's steps come last.
        guard answer("answering the first fetch and half of the second", {
            answers.value.0(["Ana"])
            answers.value.3(2)
            answers.value.1(1)
        }) else { return }
        guard arrived[0].wait("""
            the first fetch had both its answers, but delivered nothing within 2 s while a second \
            fetch still waited for one. Is the group, a counter or an answer shared between calls (a \
            `static` or global)? Every fetch needs its own.
            """) else { return }
        guard arrived[2].wait("a fetch started from another's completion did not deliver within 2 s") else { return }
        verify(thirdReturned.all == [true], "a fetch started from inside another one's completion did not return within 1 s")
        guard answer("the second fetch's friends", { answers.value.2(["Bo"]) }) else { return }
        guard arrived[1].wait("the second fetch did not deliver within 2 s of its last answer") else { return }
        for target in targets { settle(target, "after the contexts were delivered") }
        verify(delivered.map { $0.all.map(\.context) } == [
            [ApplicationContext(friends: ["Ana"], steps: 1)],
            [ApplicationContext(friends: ["Bo"], steps: 2)],
            [ApplicationContext(friends: ["Cy"], steps: 3)],
        ], "three fetches delivered \(delivered.map { $0.all.map(\.context) }); each must deliver once, with its own answers")
        verify(delivered.allSatisfy { $0.all.allSatisfy(\.onQueue) }, "each fetch must deliver on the queue handed to it")
    }

    @Test("every pair of operations at the same moment: a fetch, and the answers of earlier fetches", arguments: OperationPair.every(of: operations))
    func operationsOverlap(pair: OperationPair) {
        let target = TestQueue()
        let iterations = 100
        // Earlier fetches, whose answers the answering operations give, the next one each time.
        let earlier = 2 * iterations
        let friends = HeldFriendService(), steps = HeldStepsService()
        let delivered = Tally<(call: Int, context: ApplicationContext)>(), all = Signal()
        guard answer("\(earlier) calls of fetchApplicationContext, whose services have not answered yet,", {
            for call in 0..<earlier {
                fetchApplicationContext(friends: friends, steps: steps, queue: target.queue) { context in
                    delivered.append((call, context))
                    all.fire()
                }
            }
        }) else { return }
        let friendAnswers = Unchecked(friends.requests.all), stepAnswers = Unchecked(steps.requests.all)
        guard friendAnswers.value.count == earlier, stepAnswers.value.count == earlier else {
            recordIssue("\(earlier) fetches asked for friends \(friendAnswers.value.count) times and for steps \(stepAnswers.value.count) times; each must ask both services once, at the start")
            return
        }
        let nextFriends = Ticket(), nextSteps = Ticket(), made = Ticket()
        let ran = overlap(pair, threads: 1, iterations: iterations) { operation, _, _ in
            switch operation {
            case "friends answer":
                let i = nextFriends.take()
                friendAnswers.value[i](["friend \(i)"])
            case "steps answer":
                let i = stepAnswers.value.count - 1 - nextSteps.take()
                stepAnswers.value[i](i)
            default:
                let call = earlier + made.take()
                fetchApplicationContext(
                    friends: FakeFriendService(names: ["friend \(call)"], style: .synchronous),
                    steps: FakeStepsService(count: call, style: .asynchronous), queue: target.queue
                ) { context in
                    delivered.append((call, context))
                    all.fire()
                }
            }
        }
        guard ran else { return }
        // The answers no operation gave, from this thread.
        for i in nextFriends.taken..<earlier { friendAnswers.value[i](["friend \(i)"]) }
        for i in (0..<(earlier - nextSteps.taken)).reversed() { stepAnswers.value[i](i) }
        let calls = earlier + made.taken
        for _ in 0..<calls {
            guard all.wait("not every one of \(calls) fetches delivered within 2 s of its answers (\(delivered.count) did)") else { return }
        }
        settle(target, "after the contexts were delivered")
        let got = delivered.all
        let wrong = got.filter { $0.context != ApplicationContext(friends: ["friend \($0.call)"], steps: $0.call) }
        verify(got.count == calls && Set(got.map(\.call)).count == calls && wrong.isEmpty, """
            with \(pair.testDescription) at the same moment, \(calls) fetches delivered \(got.count) contexts \
            (\(wrong.count) not with that fetch's own answers); each must deliver once, with its own answers
            """)
    }
}

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

@Suite("2.2 fetchApplicationContext(friends:steps:queue:completion:)", .gradedUnderTSan)
struct Exercise2_2Tests {
    @Test("500 fetches answered from two threads that nothing orders: one brings the friends, the other the steps")
    func answersOnTwoThreadsAtOnce() {
        let target = TestQueue()
        let friends = HeldFriendService(), steps = HeldStepsService()
        let delivered = Tally<(context: ApplicationContext, onQueue: Bool)>(), arrived = Signal()
        let fetches = 500

        guard answer("500 calls of fetchApplicationContext, whose services have not answered yet,", {
            for _ in 0..<fetches {
                fetchApplicationContext(friends: friends, steps: steps, queue: target.queue) { context in
                    delivered.append((context, target.isCurrent))
                    arrived.fire()
                }
            }
        }) else { return }
        let friendAnswers = Unchecked(friends.requests.all), stepAnswers = Unchecked(steps.requests.all)
        guard friendAnswers.value.count == fetches, stepAnswers.value.count == fetches else {
            Issue.record("\(fetches) fetches asked for friends \(friendAnswers.value.count) times and for steps \(stepAnswers.value.count) times before the services answered; every fetch must ask each service once, both at the start")
            return
        }

        // Every fetch gets its two answers on two threads that nothing orders. The friends all go out
        // first; the steps thread waits for that through an unordered hand-off (no happens-before
        // edge for the Thread Sanitizer), then answers last to first. So the first steps answer meets
        // a friends answer TSan cannot order, in every run, however the threads are scheduled —
        // and no two answers of one fetch ever touch its state at the same moment, so a shared
        // dictionary is reported, not corrupted for real.
        let friendsAnswered = UnorderedHandOff()
        runConcurrently(threads: 2, iterations: fetches, "answering 500 fetches from 2 threads") { thread, i in
            if thread == 0 {
                friendAnswers.value[i](["friend \(i)"])
                if i == fetches - 1 { friendsAnswered.mark() }
            } else {
                if i == 0 { friendsAnswered.wait(seconds: 3) }
                let j = fetches - 1 - i
                stepAnswers.value[j](j)
            }
        }
        for _ in 0..<fetches {
            guard arrived.wait("not every fetch delivered its context within 2 s of both answers") else { return }
        }
        settle(target, "after the contexts were delivered")

        let expected = (0..<fetches).map { ApplicationContext(friends: ["friend \($0)"], steps: $0) }
        let got = delivered.all.map(\.context).sorted { $0.steps < $1.steps }
        #expect(got.count == fetches, "\(fetches) fetches delivered \(got.count) contexts; each must deliver exactly one")
        #expect(got == expected, "some contexts did not carry the friends and the steps of the same fetch")
        #expect(delivered.all.allSatisfy { $0.onQueue }, "a context was delivered on another thread than the given queue")
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
        #expect(delivered.all.map { $0.context } == [ApplicationContext(friends: ["Ana", "Bo"], steps: 8_024)],
                "expected one context with both answers; got \(delivered.all.map { $0.context })")
        #expect(delivered.all.allSatisfy { $0.onQueue }, "the context must be delivered on the given queue")
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
            Issue.record("both services must be asked before fetchApplicationContext returns (asked friends \(friends.requests.count)×, steps \(steps.requests.count)×); the requests run at the same time, not one after the other")
            return
        }
        let first = friendsFirst ? "the friends' answer" : "the steps' answer"
        let second = friendsFirst ? "the steps' answer" : "the friends' answer"

        guard answer("answering with \(first)", { friendsFirst ? answerFriends(["Ana"]) : answerSteps(12) }) else { return }
        guard settle(target, "after \(first)") else { return }
        #expect(delivered.count == 0, "a context was delivered with only \(first) in; it must wait for both")

        guard answer("answering with \(second)", { friendsFirst ? answerSteps(12) : answerFriends(["Ana"]) }) else { return }
        guard arrived.wait("the context was not delivered within 2 s of the second answer") else { return }
        settle(target, "after the context was delivered")
        #expect(delivered.all.map(\.context) == [ApplicationContext(friends: ["Ana"], steps: 12)], "expected exactly one context with both answers; got \(delivered.all.map(\.context))")
        #expect(delivered.all.allSatisfy { $0.onQueue }, "the context must be delivered on the given queue")
    }
}

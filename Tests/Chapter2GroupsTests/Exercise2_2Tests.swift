import Chapter2Groups
import Dispatch
import Testing
import WorkbookTestSupport

@Suite("2.2 fetchApplicationContext(friends:steps:queue:completion:)")
struct Exercise2_2Tests {
    @Test("500 fetches answered by two threads at once: one brings the friends, the other the steps")
    func answersOnTwoThreadsAtOnce() {
        let target = TestQueue()
        let friends = HeldFriendService(), steps = HeldStepsService()
        let delivered = Tally<ApplicationContext>(), arrived = Signal()
        let fetches = 500

        for _ in 0..<fetches {
            fetchApplicationContext(friends: friends, steps: steps, queue: target.queue) { context in
                delivered.append(context)
                arrived.fire()
            }
        }
        let friendAnswers = Unchecked(friends.requests.all), stepAnswers = Unchecked(steps.requests.all)
        guard friendAnswers.value.count == fetches, stepAnswers.value.count == fetches else {
            Issue.record("\(fetches) fetches asked for friends \(friendAnswers.value.count) times and for steps \(stepAnswers.value.count) times; every fetch must ask each service once")
            return
        }

        // Both threads run at the same time, and nothing orders one thread's answers before the
        // other's, so every fetch gets its two answers on two unordered threads. The friends go out
        // first to last and the steps last to first: the Thread Sanitizer reports unordered writes
        // even when they are not simultaneous, and keeping them apart stops a shared dictionary
        // from being corrupted for real.
        runConcurrently(threads: 2, iterations: fetches, "answering 500 fetches from 2 threads") { thread, i in
            if thread == 0 {
                friendAnswers.value[i](["friend \(i)"])
            } else {
                let j = fetches - 1 - i
                stepAnswers.value[j](j)
            }
        }
        for _ in 0..<fetches {
            guard arrived.wait("not every fetch delivered its context within 2 s of both answers") else { return }
        }
        target.queue.sync {}

        let expected = (0..<fetches).map { ApplicationContext(friends: ["friend \($0)"], steps: $0) }
        let got = delivered.all.sorted { $0.steps < $1.steps }
        #expect(got.count == fetches, "\(fetches) fetches delivered \(got.count) contexts; each must deliver exactly one")
        #expect(got == expected, "some contexts did not carry the friends and the steps of the same fetch")
    }

    @Test("services that answer at once or later, from another thread", arguments: CallbackStyle.allCases, CallbackStyle.allCases)
    func answerStyles(friendsStyle: CallbackStyle, stepsStyle: CallbackStyle) {
        let target = TestQueue()
        let delivered = Tally<(context: ApplicationContext, onQueue: Bool)>(), arrived = Signal()
        fetchApplicationContext(
            friends: FakeFriendService(names: ["Ana", "Bo"], style: friendsStyle),
            steps: FakeStepsService(count: 8_024, style: stepsStyle),
            queue: target.queue
        ) { context in
            delivered.append((context, target.isCurrent))
            arrived.fire()
        }
        arrived.wait("the context was not delivered within 2 s of both answers")
        target.queue.sync {}
        #expect(delivered.all.map { $0.context } == [ApplicationContext(friends: ["Ana", "Bo"], steps: 8_024)],
                "expected one context with both answers; got \(delivered.all.map { $0.context })")
        #expect(delivered.all.allSatisfy { $0.onQueue }, "the context must be delivered on the given queue")
    }

    @Test("both requests start at once, and delivery waits for the second answer")
    func waitsForBothAnswers() {
        let target = TestQueue()
        let friends = HeldFriendService(), steps = HeldStepsService()
        let delivered = Tally<ApplicationContext>(), arrived = Signal()
        fetchApplicationContext(friends: friends, steps: steps, queue: target.queue) { context in
            delivered.append(context)
            arrived.fire()
        }
        guard let answerFriends = friends.requests.all.first, let answerSteps = steps.requests.all.first else {
            Issue.record("both services must be asked before fetchApplicationContext returns (asked friends \(friends.requests.count)×, steps \(steps.requests.count)×); the requests run at the same time, not one after the other")
            return
        }

        answerFriends(["Ana"])
        target.queue.sync {}
        #expect(delivered.count == 0, "a context was delivered with only the friends' answer in")

        answerSteps(12)
        arrived.wait("the context was not delivered within 2 s of the second answer")
        target.queue.sync {}
        #expect(delivered.all == [ApplicationContext(friends: ["Ana"], steps: 12)], "expected exactly one context with both answers; got \(delivered.all)")
    }
}

import Chapter3Semaphores
import Dispatch
import Testing
import WorkbookTestSupport

@Suite("3.2 AudioService — one request in flight")
struct Exercise3_2Tests {
    static let stuck = "the requests are stuck. A semaphore created with value 0 has no free place: its very first wait() blocks until someone calls signal()"

    @Test("every caller gets the answer to its own request, exactly once",
          arguments: [AnswerStyle.synchronous, .later])
    func everyCallerAnswered(server style: AnswerStyle) {
        let api = FakeAudioAPI(answers: style)
        defer { api.answerAll() }
        let service = Unchecked(AudioService(api: api))
        let answers = Arrivals<(caller: Int, podcasts: [Podcast])>()

        guard callOnAnotherThread(
            "three fetchAudioList(completion:) calls did not return within 2 s — callers must not be blocked; let a private queue do the waiting",
            { for caller in 1...3 { service.value.fetchAudioList { answers.append((caller, $0)) } } }
        ) else { return }
        guard answers.wait(for: 3, "fetchAudioList did not call every completion within 2 s — \(Self.stuck)") else { return }

        for caller in 1...3 {
            let got = answers.all.filter { $0.caller == caller }.map(\.podcasts)
            #expect(got == [[Podcast(title: "Episode \(caller)")]],
                    "caller \(caller) got \(got); it must get the answer of its own request (the \(caller). one), exactly once")
        }
        #expect(api.requests == 3, "the server got \(api.requests) requests for 3 calls")
    }

    @Test("while a request is in flight, callers return at once and the next request waits for the answer")
    func oneInFlight() {
        let api = FakeAudioAPI(answers: .held)
        defer { api.answerAll() }
        let service = Unchecked(AudioService(api: api))
        let answers = Arrivals<Int>()

        guard callOnAnotherThread(
            "three fetchAudioList(completion:) calls did not return within 2 s while the first request waited for its answer — callers must not be blocked; let a private queue do the waiting",
            { for caller in 1...3 { service.value.fetchAudioList { _ in answers.append(caller) } } }
        ) else { return }

        for request in 1...3 {
            guard api.waitUntilStarted(request) else {
                recordTimeout(request == 1
                    ? "the first request did not reach the server within 2 s of fetchAudioList — \(Self.stuck)"
                    : "request \(request) did not reach the server within 2 s of request \(request - 1)'s answer — does the answer signal the semaphore?")
                return
            }
            if request < 3 {
                let startedTooSoon = api.waitUntilStarted(request + 1, seconds: 0.1)
                #expect(!startedTooSoon,
                        "request \(request + 1) reached the server while request \(request) was still in flight — only one request may be in flight at a time")
            }
            api.answerOldest()
        }
        guard answers.wait(for: 3, "not every caller got its answer within 2 s of the server answering") else { return }
        #expect(answers.all.sorted() == [1, 2, 3], "completions ran for callers \(answers.all.sorted()); each of the 3 callers must be answered exactly once")
        #expect(api.mostInFlight == 1, "\(api.mostInFlight) requests were in flight at once; at most one may be")
    }

    @Test("200 calls from four threads: one request in flight at a time, and every caller answered",
          arguments: [AnswerStyle.synchronous, .later])
    func manyThreads(server style: AnswerStyle) {
        let api = FakeAudioAPI(answers: style)
        defer { api.answerAll() }
        let service = Unchecked(AudioService(api: api))
        let answers = Arrivals<String>()

        guard runConcurrently(threads: 4, iterations: 50, "200 fetchAudioList(completion:) calls from 4 threads", { _, _ in
            service.value.fetchAudioList { podcasts in answers.append(podcasts.first?.title ?? "nothing") }
        }) else { return }
        guard answers.wait(for: 200, "not every caller got an answer within 2 s — \(Self.stuck)") else { return }

        #expect(api.mostInFlight == 1, "\(api.mostInFlight) requests were in flight at once; at most one may be")
        #expect(api.requests == 200, "the server got \(api.requests) requests for 200 calls")
        let titles = answers.all
        let eachOnce = titles.count == 200 && Set(titles).count == 200
        #expect(eachOnce, "\(titles.count) completions carried \(Set(titles).count) different answers; each request's answer goes to exactly one caller")
    }
}

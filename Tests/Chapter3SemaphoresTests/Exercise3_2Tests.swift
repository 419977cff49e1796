import Chapter3Semaphores
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport

// The contract (see the header of AudioService.swift), clause by clause:
// - fetchAudioList returns at once, from any thread, even while a request is in flight:
//     everyCallerAnswered, oneInFlight, manyThreads, serverAnswersAtOnceAndCompletionsAskAgain
// - at most one request in flight, the next only after the previous one's answer, however long:
//     oneInFlight (request 1 held 1.25 s), manyThreads, serverAnswersAtOnceAndCompletionsAskAgain
// - requests reach the server in the order of the calls (each thread's in its order):
//     everyCallerAnswered, oneInFlight, manyThreads
// - every caller gets its own request's answer, exactly once: everyCallerAnswered, manyThreads
// - a completion runs as soon as its answer arrives, not after later requests: oneInFlight
// - the server may answer before fetchList returns; completions may call fetchAudioList again:
//     serverAnswersAtOnceAndCompletionsAskAgain
// - the server may answer on the caller's own queue (an app's main queue):
//     answersDeliveredOnTheCallersQueue
// - the service may go away while a request is in flight: releasedWithARequestInFlight; or with
//     requests waiting, and every caller still gets its answer: releasedWithRequestsWaiting
//
// The dimensions (chapter.json, "dimensions"):
// - answers delivered on a serial queue, a concurrent queue (and the caller's own: answersDeliveredOnTheCallersQueue):
//     answersDeliveredOn
// - what the caller wrote is seen by its request, and what an answer left in the server by the next request:
//     whatOneRequestLeftIsSeenByTheNext
// - two services at once, one used from the other's completion: twoServicesAtOnce
// - every clause, in generated scenarios (callers everywhere, the main queue too; answers five
//     ways; completions that ask again while others wait; the service let go): explored
//     (Exercise3_2Tests+Explored.swift)

@Suite("3.2 AudioService — one request in flight", .gradedUnderTSan)
struct Exercise3_2Tests {
    static let stuck = "is a request stuck behind a wait() that nothing will signal? Ask how many free places the semaphore has before the first request, and who calls signal() (README: \"A semaphore counts free places\")"

    /// Said when a call to fetchAudioList did not return: the caller was parked.
    static let blocked = "callers must never be blocked. A wait() on the caller's thread parks that thread — in an app, the main thread, and with it the UI — until an answer arrives (README: \"Waiting on the caller's thread\")"

    /// How long the first request stays in flight in ``oneInFlight()``: longer than a `wait(timeout:)`
    /// of a second or a second and a half, so that one that gives up and sends the next request
    /// anyway (its result ignored, or only logged) is caught. The tests run in parallel, so this
    /// hold is the suite's longest step, not an addition to it.
    static let longHold = 2.0

    static let syncOntoOwnQueue =
        "Here the server answered before fetchList returned, so the answer arrived on whatever thread called fetchList — your private queue, if that is where you call it — and a completion called fetchAudioList again. libdispatch stops a program whose block, running on a serial queue, calls `sync` on that same queue: look for a `sync` in the code the answer runs."

    /// Said when request `request` did not reach the server within 2 s.
    static func late(_ request: Int) -> String {
        request == 1
            ? "the first request did not reach the server within 2 s of fetchAudioList — \(stuck)"
            : "request \(request) did not reach the server within 2 s of request \(request - 1)'s answer — does the answer signal the semaphore?"
    }

    /// The number in "Episode n": the n-th request the server got.
    static func episode(_ title: String) -> Int { Int(title.dropFirst("Episode ".count)) ?? -1 }

    /// The answer a call got: which call (thread and iteration), and the n-th request's episode.
    typealias CallAnswered = (thread: Int, iteration: Int, episode: Int)

    /// Calls fetchAudioList on a new service of `api`, kept for good, `iterations` times from each of
    /// four gated threads, each answer going to `answers`; whether the calls returned within 2 s
    /// (a time-out recorded if not).
    static func callFromFourThreads(
        _ api: FakeAudioAPI, iterations: Int, _ answers: Arrivals<CallAnswered>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let service = Unchecked(keptForever(AudioService(api: api)))
        return runConcurrently(threads: 4, iterations: iterations, "\(4 * iterations) fetchAudioList(completion:) calls from 4 threads", seconds: 2, sourceLocation: sourceLocation, { thread, iteration in
            service.value.fetchAudioList { podcasts in
                answers.append((thread, iteration, episode(podcasts.first?.title ?? "nothing")))
            }
        })
    }

    @Test("every caller gets the answer to its own request, exactly once")
    func everyCallerAnswered() {
        let api = FakeAudioAPI(answers: .later)
        defer { api.answerAll() }
        let service = Unchecked(keptForever(AudioService(api: api)))
        let answers = Arrivals<(caller: Int, podcasts: [Podcast])>()

        guard callOnAnotherThread(
            "three fetchAudioList(completion:) calls did not return within 2 s — \(Self.blocked)",
            { for caller in 1...3 { service.value.fetchAudioList { answers.append((caller, $0)) } } }
        ) else { return }
        guard answers.wait(for: 3, "fetchAudioList did not call every completion within 2 s — \(Self.stuck)") else { return }

        for caller in 1...3 {
            let got = answers.all.filter { $0.caller == caller }.map(\.podcasts)
            verify(got == [[Podcast(title: "Episode \(caller)")]], "caller \(caller) got \(got); it must get the answer of its own request (the \(caller). one, as requests go out in the order of the calls), exactly once")
        }
        verify(api.requests == 3, "the server got \(api.requests) requests for 3 calls")
    }

    @Test("while a request is in flight, however long, callers return at once, the next request waits, and each answer reaches its caller at once")
    func oneInFlight() {
        let api = FakeAudioAPI(answers: .held)
        defer { api.answerAll() }
        let service = Unchecked(keptForever(AudioService(api: api)))
        let answers = Arrivals<(caller: Int, title: String)>()

        guard callOnAnotherThread(
            "three fetchAudioList(completion:) calls, made from one thread, did not return within 2 s while the first request waited for its answer: the second call was still inside fetchAudioList — \(Self.blocked)",
            { for caller in 1...3 { service.value.fetchAudioList { answers.append((caller, $0.first?.title ?? "nothing")) } } }
        ) else { return }

        for request in 1...3 {
            guard api.waitUntilStarted(request) else {
                recordTimeout(Self.late(request))
                return
            }
            if request < 3 {
                // The first request stays in flight for more than a second, the second briefly.
                let start = Date()
                let startedTooSoon = api.waitUntilStarted(request + 1, seconds: request == 1 ? Self.longHold : 0.1)
                verify(!startedTooSoon, "request \(request + 1) reached the server \(duration(since: start)) after request \(request), while request \(request) was still in flight — only one request may be in flight at a time, however long its answer takes.\(timedWaitHint(since: start))")
            }
            api.answerOldest()
            let later = request < 3 ? ", while request \(request + 1) was in flight" : ""
            guard answers.wait(for: request,
                               "caller \(request) did not get its answer within 2 s of the server answering\(later) — call the completion when its answer arrives. (A completion sent to your private queue waits there behind the next request's wait().)")
            else { return }
        }
        let got = answers.all.map { "\($0.caller): \($0.title)" }
        verify(got == ["1: Episode 1", "2: Episode 2", "3: Episode 3"], "the completions got \(got); each caller must get its own request's answer, exactly once, and requests go out in the order of the calls")
        verify(api.mostInFlight == 1, "\(api.mostInFlight) requests were in flight at once; at most one may be")
    }

    @Test("200 calls from four threads: one request in flight at a time, each thread's in order, every caller answered once")
    func manyThreads() {
        let api = FakeAudioAPI(answers: .later)
        defer { api.answerAll() }
        let answers = Arrivals<CallAnswered>()
        guard Self.callFromFourThreads(api, iterations: 50, answers) else { return }
        guard answers.wait(for: 200, "not every caller got an answer within 2 s — \(Self.stuck)") else { return }

        verify(api.mostInFlight == 1, "\(api.mostInFlight) requests were in flight at once; at most one may be")
        verify(api.requests == 200, "the server got \(api.requests) requests for 200 calls")
        let all = answers.all
        let episodes = all.map(\.episode)
        let eachOnce = all.count == 200 && Set(episodes).count == 200
        verify(eachOnce, "\(all.count) completions carried \(Set(episodes).count) different answers; each request's answer goes to exactly one caller")
        for thread in 0..<4 {
            let mine = all.filter { $0.thread == thread }.sorted { $0.iteration < $1.iteration }
            let inOrder = mine.map(\.iteration) == Array(0..<50) && mine.map(\.episode) == mine.map(\.episode).sorted()
            verify(inOrder, "thread \(thread)'s calls were not answered once each, in the order it made them: its requests must reach the server in that order")
        }
    }

    // A server that answers before fetchList returns runs the answer on the thread that called
    // fetchList. An answer that uses `sync` onto the queue it is on there stops the program, so
    // this runs in a child process (an exit test): a crash fails this test alone.

    @Test("a server that answers before fetchList returns, and completions that call fetchAudioList again, are served like any other")
    func serverAnswersAtOnceAndCompletionsAskAgain() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) {
                // Three calls in a row, the server answering at once.
                do {
                    let api = FakeAudioAPI(answers: .synchronous)
                    let service = Unchecked(keptForever(AudioService(api: api)))
                    let answers = Arrivals<String>()
                    guard finishes({ for caller in 1...3 { service.value.fetchAudioList { answers.append("\(caller): \($0.first?.title ?? "nothing")") } } }) else {
                        return childTimedOut("three fetchAudioList(completion:) calls did not return within 2 s, the server answering before fetchList returned — \(Self.blocked)")
                    }
                    guard answers.arrived(3) else {
                        return childTimedOut("only \(answers.count) of 3 callers got an answer within 2 s, the server answering before fetchList returned")
                    }
                    if answers.all.sorted() != ["1: Episode 1", "2: Episode 2", "3: Episode 3"] {
                        return "with a server answering before fetchList returned, the completions got \(answers.all.sorted()); each caller must get its own request's answer, exactly once"
                    }
                }
                // 200 calls from four threads, the server answering at once.
                do {
                    let api = FakeAudioAPI(answers: .synchronous)
                    let service = Unchecked(keptForever(AudioService(api: api)))
                    let answers = Arrivals<String>()
                    guard gatedThreads(iterations: 50, seconds: 2, { _, _ in service.value.fetchAudioList { answers.append($0.first?.title ?? "nothing") } }) else {
                        return childTimedOut("200 fetchAudioList(completion:) calls from 4 threads did not all return within 2 s, the server answering before fetchList returned")
                    }
                    guard answers.arrived(200) else {
                        return childTimedOut("only \(answers.count) of 200 callers (4 threads) got an answer within 2 s, the server answering before fetchList returned")
                    }
                    if api.mostInFlight != 1 { return "\(api.mostInFlight) requests were in flight at once; at most one may be" }
                    if Set(answers.all).count != 200 { return "200 completions carried \(Set(answers.all).count) different answers; each request's answer goes to exactly one caller" }
                }
                // A completion that asks again, twice, with each kind of server.
                for style in [AnswerStyle.synchronous, .later] {
                    let api = FakeAudioAPI(answers: style)
                    let service = Unchecked(keptForever(AudioService(api: api)))
                    let answers = Arrivals<String>()
                    let how = style == .synchronous ? "the server answering before fetchList returned" : "the server answering later, from another thread"
                    guard finishes({
                        service.value.fetchAudioList { first in
                            answers.append(first.first?.title ?? "nothing")
                            service.value.fetchAudioList { second in
                                answers.append(second.first?.title ?? "nothing")
                                service.value.fetchAudioList { third in answers.append(third.first?.title ?? "nothing") }
                            }
                        }
                    }) else {
                        return childTimedOut("fetchAudioList(completion:) did not return within 2 s, its completion calling fetchAudioList again (\(how))")
                    }
                    guard answers.arrived(3) else {
                        return childTimedOut("a completion that called fetchAudioList again did not get its answer: \(answers.count) of 3 chained calls were answered within 2 s (\(how)). Calling fetchAudioList from a completion must work: nothing may be held or waited on while a completion runs")
                    }
                    if answers.all != ["Episode 1", "Episode 2", "Episode 3"] {
                        return "three chained calls (each made from the previous one's completion) got \(answers.all) (\(how)); expected Episode 1, 2, 3"
                    }
                    if api.mostInFlight != 1 { return "\(api.mostInFlight) requests were in flight at once (\(how)); at most one may be" }
                }
                return nil
            }
        }
        judgeChild(result, "Fetching from a server that answers at once, and from completions", ifItCrashed: Self.syncOntoOwnQueue)
    }

    // An API that delivers its answers on the main queue, called from the main queue: the second
    // call comes while the first request is in flight. A call that waits there for the first
    // answer waits for a block queued behind itself — the queue never gets to it. That stays
    // stuck for good, so this runs in a child process (an exit test) that is ended after its bound.

    @Test("two calls from the UI queue, the server answering on that same queue: both return at once, both are answered")
    func answersDeliveredOnTheCallersQueue() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 5, cutShort: cutShort) {
                let ui = TestQueue(label: "workbook.ui")
                let api = FakeAudioAPI(answers: .later, deliveredOn: ui.queue)
                let service = Unchecked(keptForever(AudioService(api: api)))
                let answers = Arrivals<String>()
                let returned = Arrivals<Int>()
                // Two taps, both queued on the UI queue before the first answer can be.
                for tap in 1...2 {
                    ui.queue.async {
                        service.value.fetchAudioList { answers.append("\(tap): \($0.first?.title ?? "nothing")") }
                        returned.append(tap)
                    }
                }
                guard returned.arrived(2) else {
                    return childTimedOut("only \(returned.count) of 2 fetchAudioList(completion:) calls made on the UI queue returned within 2 s. The second call came while the first request was in flight, and the server delivers its answers on that same UI queue: an answer queued behind a call that waits for it can never run — the UI is frozen for good, a deadlock — \(Self.blocked)")
                }
                guard answers.arrived(2) else {
                    return childTimedOut("both calls returned, but only \(answers.count) of 2 callers got an answer within 2 s, the server delivering its answers on the UI queue the calls were made from")
                }
                if answers.all != ["1: Episode 1", "2: Episode 2"] {
                    return "two calls from the UI queue got \(answers.all); each caller must get its own request's answer, exactly once, in the order of the calls"
                }
                if api.mostInFlight != 1 { return "\(api.mostInFlight) requests were in flight at once; at most one may be" }
                return nil
            }
        }
        judgeChild(result, "Calling fetchAudioList twice from the UI queue, the server answering on that queue",
                   ifItCrashed: "libdispatch stops a program that calls `sync` onto the serial queue it is already running on — look for a `sync` in fetchAudioList or in the code the answer runs.",
                   ifItHung: "a wait on the UI queue for an answer that is delivered on the UI queue never ends — \(Self.blocked)")
    }

    @Test("the service may go away while a request is in flight: the answer still reaches its caller, without a crash")
    func releasedWithARequestInFlight() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 5, cutShort: cutShort) {
                let api = FakeAudioAPI(answers: .held)
                let answers = Arrivals<String>()
                if let late = letGoAfterOneUse(
                    { AudioService(api: api) }, { service in service.fetchAudioList { answers.append($0.first?.title ?? "nothing") } },
                    started: { api.waitUntilStarted(1) }, else: "the request did not reach the server within 2 s of fetchAudioList"
                ) { return late }
                api.answerOldest()
                guard answers.arrived(1) else {
                    return childTimedOut("the caller did not get its answer within 2 s of the server answering, the service having gone away meanwhile — the request's callback must not depend on the service still being there")
                }
                return nil
            }
        }
        judgeChild(result, "Letting the service go while a request was in flight, then answering it",
              ifItCrashed: releasedWhileTaken("service", "request's callback"))
    }

    // MARK: - Dimensions

    @Test("answers delivered on a serial or a concurrent queue reach every caller, one request in flight at a time",
          arguments: [HandedQueue.serial, .concurrent])
    func answersDeliveredOn(_ form: HandedQueue) {
        let probe = form.make(label: "workbook.delivery")
        let api = FakeAudioAPI(answers: .later, deliveredOn: probe.queue)
        defer { api.answerAll() }
        let answers = Arrivals<CallAnswered>()
        guard Self.callFromFourThreads(api, iterations: 10, answers) else { return }
        guard answers.wait(for: 40, "not every caller got an answer within 2 s, the server delivering its answers on \(form.testDescription) — \(Self.stuck)") else { return }
        verify(api.mostInFlight == 1, "\(api.mostInFlight) requests were in flight at once, the server delivering its answers on \(form.testDescription); at most one may be")
        let all = answers.all
        verify(Set(all.map(\.episode)).count == 40, "40 completions carried \(Set(all.map(\.episode)).count) different answers, the server delivering on \(form.testDescription); each request's answer goes to exactly one caller")
        for thread in 0..<4 {
            let mine = all.filter { $0.thread == thread }.sorted { $0.iteration < $1.iteration }
            verify(mine.map(\.episode) == mine.map(\.episode).sorted(), "thread \(thread)'s requests did not reach the server in the order of its calls")
        }
    }

    @Test("what the caller wrote before fetchAudioList is seen by its request, and what an answer left in the server is seen by the next request")
    func whatOneRequestLeftIsSeenByTheNext() {
        // The server is not thread-safe: its state is plain memory, written by each answer (on a
        // thread of its own) and read by the next request. "The next one starts only after the
        // previous one has answered" means the answer's write comes before the next request's
        // read — the Thread Sanitizer reports the two unless the service orders them (a semaphore,
        // a lock, a queue do; a relaxed atomic flag does not). An answer that lets two requests
        // overlap is told so here, and the server then writes nothing.
        let count = 4
        let server = UnguardedServer(requests: count)
        defer { server.answerAll() }
        let service = Unchecked(keptForever(AudioService(api: server)))
        let answers = Arrivals<String>()
        for (index, note) in server.notes.enumerated() { note.value = index + 1 }

        guard callOnAnotherThread("\(count) fetchAudioList(completion:) calls did not return within 2 s — \(Self.blocked)", {
            for _ in 1...count { service.value.fetchAudioList { answers.append($0.first?.title ?? "nothing") } }
        }) else { return }
        guard let overlapped = oneAtATime(
            count, started: server.waitUntilStarted, first: Self.late(1), late: Self.late,
            overlap: { request in "request \(request + 1) reached the server while request \(request) was still in flight — only one request may be in flight at a time" },
            finish: { request, write in server.answer(request, write: write) }
        ) else { return }
        guard answers.wait(for: count, "not every caller got an answer within 2 s — \(Self.stuck)") else { return }
        let seen = server.seen
        verifyHandOver(
            count, notes: seen.map(\.sawNote), previous: seen.map(\.sawFinished), overlapped: overlapped,
            notesWrong: { notes in "the requests saw the callers' data \(notes); each request must see what its caller wrote before calling fetchAudioList" },
            previousWrong: { previous in "each request saw, as the last answered request, \(previous); the next request must see what the previous answer left in the server" })
    }

    @Test("two services at once: each keeps its own request in flight, and one may be used from the other's completion")
    func twoServicesAtOnce() {
        let first = FakeAudioAPI(answers: .held), second = FakeAudioAPI(answers: .held)
        defer { first.answerAll(); second.answerAll() }
        let services = Unchecked([first, second].map { keptForever(AudioService(api: $0)) })
        let answers = Arrivals<String>()
        let shared = "Two services share nothing: a `static` semaphore or queue, or a global, makes every service wait for the answers of all the others."

        guard callOnAnotherThread("fetchAudioList(completion:) did not return within 2 s — \(Self.blocked)", {
            services.value[0].fetchAudioList { answers.append("first: \($0.first?.title ?? "nothing")") }
        }) else { return }
        guard first.waitUntilStarted(1) else {
            recordTimeout("the first service's request did not reach its server within 2 s — \(Self.stuck)")
            return
        }
        // While the first service's request is in flight, the second service is asked; its
        // completion asks the second service again, and the first.
        guard callOnAnotherThread("fetchAudioList(completion:) on a second service did not return within 2 s — \(Self.blocked)", {
            services.value[1].fetchAudioList { podcasts in
                answers.append("second: \(podcasts.first?.title ?? "nothing")")
                services.value[1].fetchAudioList { answers.append("second again: \($0.first?.title ?? "nothing")") }
                services.value[0].fetchAudioList { answers.append("first again: \($0.first?.title ?? "nothing")") }
            }
        }) else { return }
        guard second.waitUntilStarted(1) else {
            recordTimeout("the second service's request did not reach its server within 2 s, while the first service's request was in flight. \(shared)")
            return
        }
        second.answerOldest()
        guard answers.wait(for: 1, "the second service's caller did not get its answer within 2 s of its server answering") else { return }
        guard second.waitUntilStarted(2) else {
            recordTimeout("the second service's next request, asked for from its completion, did not reach its server within 2 s, while the first service's request was in flight. \(shared)")
            return
        }
        verify(first.requests == 1, "the first service sent \(first.requests) requests while its first one was in flight; one at a time, whatever another service does")
        second.answerOldest()
        first.answerOldest()
        guard first.waitUntilStarted(2) else {
            recordTimeout("the first service's second request, asked for from the second service's completion, did not reach its server within 2 s of its first answer")
            return
        }
        first.answerOldest()
        guard answers.wait(for: 4, "not every caller of the two services got an answer within 2 s") else { return }
        verify(Set(answers.all) == ["first: Episode 1", "second: Episode 1", "second again: Episode 2", "first again: Episode 2"], "the callers of two services got \(answers.all.sorted()); each must get its own service's answer")
    }

    @Test("the service may go away with requests waiting: every caller still gets its answer, one request in flight at a time")
    func releasedWithRequestsWaiting() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) {
                let api = FakeAudioAPI(answers: .held)
                let answers = Arrivals<String>()
                // A service released fresh, never used.
                do { _ = AudioService(api: api) }
                do {
                    let service = AudioService(api: api)
                    for caller in 1...3 { service.fetchAudioList { answers.append("\(caller): \($0.first?.title ?? "nothing")") } }
                }
                // The service is gone (as far as its callers know): request 1 is in flight or about
                // to be, 2 and 3 are waiting.
                if let problem = childOneAtATime(
                    3, started: api.waitUntilStarted,
                    first: "the first request, asked for just before the service was released, did not reach the server within 2 s",
                    late: { request in "request \(request), still waiting when the service was released, did not reach the server within 2 s of request \(request - 1)'s answer — what was asked for must still be sent. What does a block of yours that runs after the service has gone find, and what does it do then?" },
                    overlap: { request in "request \(request + 1) reached the server while request \(request) was still in flight, the service having been released — one at a time, whoever holds the service" },
                    finish: { request in
                        api.answerOldest()
                        return answers.arrived(request) ? nil : childTimedOut("caller \(request) did not get its answer within 2 s of the server answering, the service having been released")
                    }
                ) { return problem }
                if answers.all != ["1: Episode 1", "2: Episode 2", "3: Episode 3"] {
                    return "the callers got \(answers.all); each must get its own request's answer, in the order of the calls"
                }
                return nil
            }
        }
        judgeChild(result, "Letting the service go with request 1 in flight and 2 and 3 waiting, then answering them",
                   ifItCrashed: releasedWhileTaken("service", "request's callback"))
    }
}

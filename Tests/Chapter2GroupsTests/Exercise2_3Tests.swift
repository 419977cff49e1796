import Chapter2Groups
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport

// The tests that report URLs pause the serial queues the library keeps (found through its stored
// properties), as a busy device would delay them, and let them go on only after `queue` has run
// whatever was scheduled on it. A library whose completion does not wait for its own queue then
// delivers a short list — in every run, not once in a while. (A library that keeps no queue is not
// slowed down; one that blocks on its paused queue is held up for 1 s at most.)
//
// The contract (VideoLibrary.swift) and the tests that check each clause:
// - load returns at once: it waits for no source ............................ every test (bounded calls), sourcesOnFourThreads
// - completion exactly once, on `queue`, after every source's done, with every
//   URL found (any order, none twice), even while the library's queue is busy ... waitsForEveryURL, sourcesOnFourThreads, laterSources
// - sources may report before enumerate returns, later, or from several
//   threads at once ........................................................... waitsForEveryURL, laterSources, sourcesOnFourThreads
// - a failed source adds nothing but counts as finished ..................... failingSources (exit test)
// - completion is scheduled on `queue`, never called inside load — also with
//   no sources ................................................................ noSources
// - every load has its own list: loads do not mix, overlapping or not ........ severalLoads
// - completion holds nothing of the library: it may start another load and
//   wait for it .............................................................. completionMayLoadAgain
// - every clause, in generated scenarios (0 to 5 sources of 0, 1 or many URLs or failing, reporting
//   six ways, from several threads at once and held together too; every kind of queue, the main and
//   a global one too; one or two loads from anywhere, the queue itself too; completions that load
//   again and wait; the library's queue busy): explored (Exercise2_3Tests+Explored.swift)

@Suite("2.3 VideoLibrary.load(queue:completion:)", .gradedUnderTSan)
struct Exercise2_3Tests {
    @Test("completion waits for every URL, even while the library's own queue is busy")
    func waitsForEveryURL() {
        let sources = (0..<3).map { s in ListSource(urls: (0..<40).map { video(s, $0) }, style: .synchronous) }
        let library = VideoLibrary(sources: sources)
        let load = WatchedLoad()
        guard let busy = load.start(library, "3 sources that report 40 URLs each before enumerate returns") else { return }
        settle(load.target, "after load returned")  // if completion was scheduled already, it has run now
        busy.release()

        guard load.arrived.wait("completion was not called within 2 s after every source had finished") else { return }
        settle(load.target, "after completion ran")
        expectOneDelivery(load.delivered.all, of: sources.flatMap(\.urls))
    }

    @Test("four sources reporting from four threads at once")
    func sourcesOnFourThreads() {
        let held = (0..<4).map { _ in HeldSource() }
        let library = VideoLibrary(sources: held)
        let load = WatchedLoad()
        guard let busy = load.start(library, "4 sources that have not reported yet") else { return }
        let requests = Unchecked(held.compactMap { $0.requests.all.first })
        guard requests.value.count == 4 else {
            recordIssue("load asked \(requests.value.count) of 4 sources to enumerate before it returned; it must ask every source")
            busy.release()
            return
        }
        // Source t reports its 250 URLs from thread t, then says it is done.
        runConcurrently(threads: 4, iterations: 250, "4 sources reporting 250 URLs each") { source, i in
            requests.value[source].found(video(source, i))
            if i == 249 { requests.value[source].done(nil) }
        }
        settle(load.target, "after the sources finished")
        busy.release()

        guard load.arrived.wait("completion was not called within 2 s after all 4 sources had finished") else { return }
        settle(load.target, "after completion ran")
        expectOneDelivery(load.delivered.all, of: (0..<4).flatMap { s in (0..<250).map { video(s, $0) } })
    }

    @Test("sources that report later, from their own threads")
    func laterSources() {
        let sources = [
            ListSource(urls: (0..<30).map { video(0, $0) }, style: .asynchronous),
            ListSource(urls: (0..<30).map { video(1, $0) }, style: .asynchronous),
        ]
        let library = VideoLibrary(sources: sources)
        let load = WatchedLoad()
        guard let busy = load.start(library, "2 sources that report later") else { return }
        for source in sources {
            guard source.finished.wait("a source did not finish reporting within 2 s; is its found or done handler blocked?") else {
                busy.release()
                return
            }
        }
        settle(load.target, "after the sources finished")
        busy.release()

        guard load.arrived.wait("completion was not called within 2 s after every source had finished") else { return }
        settle(load.target, "after completion ran")
        expectOneDelivery(load.delivered.all, of: sources.flatMap(\.urls))
    }

    @Test("sources that fail: they add nothing, and still count as finished")
    func failingSources() async {
        // In a child process: an answer that calls leave() twice for a failed source stops the
        // program, and only this test should fail.
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 3, cutShort: cutShort) {
                let cases: [(what: String, sources: [ListSource])] = [
                    ("one of three sources fails", [
                        ListSource(urls: (0..<30).map { video(0, $0) }, style: .asynchronous),
                        ListSource(fails: true, style: .asynchronous),
                        ListSource(urls: (0..<30).map { video(2, $0) }, style: .synchronous),
                    ]),
                    ("every source fails", [ListSource(fails: true, style: .synchronous), ListSource(fails: true, style: .asynchronous)]),
                ]
                for (what, sources) in cases {
                    let library = VideoLibrary(sources: sources)
                    let load = WatchedLoad()
                    // As in the other tests: the library's queues wait until every source has
                    // finished and `queue` has run what was scheduled on it by then.
                    let busy = QueueHold(queuesOf: library)
                    library.load(queue: load.target.queue, completion: load.completion)
                    for source in sources { _ = source.finished.happens(within: 2) }
                    load.target.queue.sync {}
                    load.target.queue.sync {}
                    busy.release()
                    // Longer than the child's bound: no completion at all ends the child as hung.
                    guard load.arrived.happens(within: 10) else { return nil }
                    load.target.queue.sync {}
                    if let problem = deliveryProblem(load.delivered.all, of: sources.flatMap(\.urls)) {
                        return "when \(what): \(problem)"
                    }
                }
                return nil
            }
        }
        judgeChild(
            result, "Loading from sources of which some fail (a failed source still counts as finished: completion must come)",
            ifItCrashed: """
                The program stopped while a source failed. libdispatch traps on a `leave()` that has \
                no `enter()` (the crash report on Apple platforms says "Unbalanced call to dispatch_group_leave()"; on \
                Linux the process just stops with SIGILL on x86-64, SIGTRAP on arm64). Follow a \
                failing source through your `done` handler and count its leave() calls.
                """)
    }

    @Test("no sources: completion at once, with an empty list — on the queue, after load has returned")
    func noSources() {
        let target = TestQueue()
        expectCompletionAfterReturning(
            on: target,
            notCalled: "with no sources, completion was not called within 2 s; with nothing to wait for it must come right away",
            offQueue: "with no sources, completion ran on another thread than the given queue",
            beforeReturn: """
                with no sources, completion ran before load returned. Completion is always scheduled on \
                `queue` (notify on an empty group does that), never called from inside load.
                """,
            alsoVerify: { got in verify(got.allSatisfy { $0.isEmpty }, "with no sources, completion must get an empty list") }
        ) { completion in
            callLoad(VideoLibrary(sources: []), on: target, "no sources", completion: completion)
        }
    }

    @Test("loads on one library, from several threads, overlapping or not: each delivers only its own URLs")
    func severalLoads() {
        let held = (0..<2).map { _ in HeldSource() }
        let library = VideoLibrary(sources: held)
        let targets = (1...3).map { TestQueue(label: "load \($0)") }
        let delivered = (0..<3).map { _ in Tally<(urls: [URL], onQueue: Bool)>() }
        let arrived = (0..<3).map { _ in Signal() }
        let firstArrived = UnorderedFlag()
        let deliver: (Int) -> ([URL]) -> Void = { n in
            { urls in
                delivered[n].append((urls, targets[n].isCurrent))
                arrived[n].fire()
                if n == 0 { firstArrived.raise() }
            }
        }
        // Load n finds video(2n, i) and video(2n + 1, i): 50 URLs from each of the 2 sources.
        let urls = (0..<3).map { n in (0..<2).flatMap { s in (0..<50).map { video(2 * n + s, $0) } } }
        let requests = { (n: Int) in Unchecked(held.compactMap { $0.requests.all.dropFirst(n).first }) }

        // Load 1, and its URLs reported from thread 0. Thread 1 starts load 2 as soon as load 1 has
        // delivered, without any synchronization with it — as an unrelated caller on another
        // thread would: whatever load 2 does to the library must not touch load 1's list.
        let firstHold = QueueHold(queuesOf: library)
        guard callLoad(library, on: targets[0], "the first of three loads", completion: deliver(0)) else {
            firstHold.release()
            return
        }
        let first = requests(0)
        guard first.value.count == 2 else {
            recordIssue("load asked \(first.value.count) of 2 sources to enumerate before it returned; it must ask every source")
            firstHold.release()
            return
        }
        let lib = Unchecked(library), secondDelivery = Unchecked(deliver(1))
        guard runConcurrently(threads: 2, iterations: 1, "reporting for load 1, and starting load 2 once it has delivered", { thread, _ in
            if thread == 0 {
                for (s, request) in first.value.enumerated() {
                    for i in 0..<50 { request.found(video(s, i)) }
                    request.done(nil)
                }
                // As in the other tests: the library's queue goes on only after `queue` has run
                // what was scheduled on it by then.
                let drained = Signal()
                targets[0].queue.async { targets[0].queue.async { drained.fire() } }
                _ = drained.happens(within: 2)
                firstHold.release()
            } else {
                _ = firstArrived.spin()
                lib.value.load(queue: targets[1].queue, completion: secondDelivery.value)
            }
        }) else {
            firstHold.release()
            return
        }

        // Load 3 starts while load 2 is still waiting for its sources; then both get their URLs
        // at once, from two threads, each thread reporting for one source of both loads.
        guard callLoad(library, on: targets[2], "the third of three loads, while the second is still running", completion: deliver(2)) else { return }
        let second = requests(1), third = requests(2)
        guard second.value.count == 2, third.value.count == 2 else {
            recordIssue("loads 2 and 3 asked \(second.value.count) and \(third.value.count) of 2 sources to enumerate; every load must ask every source")
            return
        }
        let laterHold = QueueHold(queuesOf: library)
        guard runConcurrently(threads: 2, iterations: 50, "reporting for loads 2 and 3 at once", { s, i in
            second.value[s].found(video(2 + s, i))
            third.value[s].found(video(4 + s, i))
            if i == 49 {
                second.value[s].done(nil)
                third.value[s].done(nil)
            }
        }) else {
            laterHold.release()
            return
        }
        settle(targets[1], "after the sources of load 2 finished")
        settle(targets[2], "after the sources of load 3 finished")
        laterHold.release()

        for n in 0..<3 {
            guard arrived[n].wait("load \(n + 1) of 3 did not call its completion within 2 s after its sources had finished") else { return }
            settle(targets[n], "after completion \(n + 1) ran")
        }
        let got = delivered.map(\.all)
        verify(got.map(\.count) == [1, 1, 1], "each load must call its completion exactly once; they ran \(got.map(\.count)) times")
        guard got.allSatisfy({ $0.count == 1 }) else { return }
        let one = got.map { $0[0] }
        verify(one.allSatisfy { $0.onQueue }, "each load must call its completion on the queue given to it")
        let missing = (0..<3).map { Set(urls[$0]).subtracting(one[$0].urls).count }
        let foreign = (0..<3).map { Set(one[$0].urls).subtracting(urls[$0]).count }
        if missing.reduce(0, +) > 0 {
            recordIssue("""
                three loads got \(one.map(\.urls.count)) URLs, expected 100 each: \(missing) missing, \
                although every source had reported them before completion ran. Read "Work the group \
                does not know about" in the lesson.
                """)
        } else {
            verify(foreign == [0, 0, 0] && one.map(\.urls.count) == [100, 100, 100], """
                three loads got \(one.map(\.urls.count)) URLs, expected 100 each, every load only its own \
                (\(foreign) came from another load). Does the list live in the library, shared by every \
                load? Each load needs a list of its own.
                """)
        }
    }

    @Test("completion holds nothing of the library: it may start another load, on another thread, and wait for it")
    func completionMayLoadAgain() {
        let library = Unchecked(VideoLibrary(sources: [ListSource(urls: (0..<5).map { video(0, $0) }, style: .synchronous)]))
        let target = TestQueue(), other = TestQueue(label: "second load")
        let nestedReturned = Tally<Bool>(), outer = Signal()
        let nested = Tally<[URL]>(), nestedArrived = Signal()

        let busy = QueueHold(queuesOf: library.value)
        guard callLoad(library.value, on: target, "a source that reports before enumerate returns", completion: { _ in
            // From inside completion: start a second load on a thread of its own, and wait (at most
            // 1 s) for that call to return — as code that reloads on demand might.
            let returned = Signal()
            startThread {
                library.value.load(queue: other.queue) { urls in
                    nested.append(urls)
                    nestedArrived.fire()
                }
                returned.fire()
            }
            nestedReturned.append(returned.happens(within: 1))
            outer.fire()
        }) else {
            busy.release()
            return
        }
        // Whatever was scheduled already runs before the library's queue goes on.
        settle(target, "after load returned")
        settle(other, "after load returned")
        busy.release()

        guard outer.wait("completion was not called within 2 s after the source had finished") else { return }
        if nestedReturned.all != [true] {
            recordTimeout("""
                a second load, started from completion on another thread, did not return within 1 s \
                while completion waited for it. Is completion called while the library holds its lock \
                or its queue? The contract says completion is called with nothing of the library held.
                """)
            return
        }
        guard nestedArrived.wait("the second load, started from completion, did not call its completion within 2 s") else { return }
        verify(nested.all.map(\.count) == [5], "the second load must deliver the source's 5 URLs once; it delivered \(nested.all.map(\.count))")
    }
}

/// One load a test watches: the queue it delivers on, and what each completion got and whether it
/// ran there.
private final class WatchedLoad: Sendable {
    let target = TestQueue()
    let delivered = Tally<(urls: [URL], onQueue: Bool)>()
    /// Fired by each completion.
    let arrived = Signal()

    /// The completion to hand to `load`.
    var completion: @Sendable ([URL]) -> Void {
        { [self] urls in
            delivered.append((urls, target.isCurrent))
            arrived.fire()
        }
    }

    /// ``callLoad(_:on:_:sourceLocation:completion:)`` with ``completion``, while `library`'s own
    /// queues are held busy: the hold, to release once the sources have finished, or `nil` (the
    /// hold released) when load did not return.
    func start(_ library: VideoLibrary, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) -> QueueHold? {
        let busy = QueueHold(queuesOf: library)
        guard callLoad(library, on: target, what, sourceLocation: sourceLocation, completion: completion) else {
            busy.release()
            return nil
        }
        return busy
    }
}

/// Checks that completion ran exactly once, on the given queue, with exactly `expected` (in any order).
private func expectOneDelivery(
    _ deliveries: [(urls: [URL], onQueue: Bool)], of expected: [URL],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    if let problem = deliveryProblem(deliveries, of: expected) {
        recordIssue(Comment(rawValue: problem), sourceLocation: sourceLocation)
    }
}

/// What is wrong with the deliveries of one load, or `nil`.
private func deliveryProblem(_ deliveries: [(urls: [URL], onQueue: Bool)], of expected: [URL]) -> String? {
    guard deliveries.count == 1, let delivery = deliveries.first else {
        return "completion ran \(deliveries.count) times; it must run exactly once"
    }
    guard delivery.onQueue else { return "completion must run on the queue given to load; it ran on another thread" }
    let missing = Set(expected).subtracting(delivery.urls).count
    if missing > 0 {
        return """
            completion got \(delivery.urls.count) URLs, but the sources found \(expected.count): \(missing) \
            missing, although every source had reported them before completion ran. Read "Work the \
            group does not know about" in the lesson.
            """
    }
    if delivery.urls.count != expected.count {
        return "completion got \(delivery.urls.count) URLs for \(expected.count) videos: some were delivered twice, or come from elsewhere"
    }
    return nil
}

// The dimensions (chapter.json, "dimensions"): every form of queue a caller may hand in, a source
// slower than any timed wait an answer might hide, what the sources wrote before `done`, two
// libraries at once (one loading from the other's completion), a library released while its loads
// run, and every pair of operations at the same moment.
extension Exercise2_3Tests {
    static let operations = ["load", "report"]

    @Test("the queue handed in: a serial queue, a concurrent queue, the caller's own queue", arguments: HandedQueue.allCases)
    func handedQueues(form: HandedQueue) async {
        // In a child process: `queue.sync` from a block already running on the caller's own queue
        // stops the program, and only this test should fail.
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [form = form as HandedQueue, cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let probe = form.make()
                let held = (0..<2).map { _ in HeldSource() }
                let listed = [ListSource(urls: (0..<20).map { video(2, $0) }, style: .synchronous),
                              ListSource(urls: (0..<20).map { video(3, $0) }, style: .asynchronous)]
                let library = Unchecked(VideoLibrary(sources: held + listed))
                let delivered = Tally<(urls: [URL], onQueue: Bool)>(), arrived = Signal()
                // As in the other tests: the library's queues wait until every source has finished
                // and `queue` has run what was scheduled on it by then. The hold lets go by itself
                // after 1.5 s, so that an answer whose `found` appends with `sync` (and so waits for
                // the held queue) is still inside the 2 s bounds.
                let busy = QueueHold(queuesOf: library.value, seconds: 1.5)
                defer { busy.release() }
                guard probe.call({
                    library.value.load(queue: probe.queue) { urls in
                        delivered.append((urls, probe.isCurrent))
                        arrived.fire()
                    }
                }) else {
                    return childTimedOut("load, called from \(form.testDescription) it was handed, did not return within 2 s; it must return at once and never wait on `queue`")
                }
                let requests = Unchecked(held.compactMap { $0.requests.all.first })
                guard requests.value.count == 2 else {
                    return "with \(form.testDescription), load asked \(requests.value.count) of 2 held sources to enumerate before it returned; it must ask every source"
                }
                guard listed.allSatisfy({ $0.finished.happens(within: 2) }), probe.drained() else {
                    return childTimedOut("with \(form.testDescription), the sources or the queue handed to load were still busy 2 s later: something waits on `queue`")
                }
                if delivered.count > 0 {
                    return "with \(form.testDescription), completion ran while 2 sources had not called done yet"
                }
                guard gatedThreads(threads: 2, iterations: 50, seconds: 3, { s, i in
                    requests.value[s].found(video(s, i))
                    if i == 49 { requests.value[s].done(nil) }
                }) else {
                    return childTimedOut("with \(form.testDescription), 2 sources reporting 50 URLs each did not finish within 3 s: found or done blocks")
                }
                guard probe.drained() else {
                    return childTimedOut("\(form.testDescription) handed to load was still busy 2 s after every source had finished")
                }
                busy.release()
                guard arrived.happens(within: 2) else {
                    return childTimedOut("with \(form.testDescription), completion was not called within 2 s after every source had finished")
                }
                guard probe.drained() else {
                    return childTimedOut("\(form.testDescription) handed to load was still busy 2 s after completion ran")
                }
                let expected = (0..<2).flatMap { s in (0..<50).map { video(s, $0) } } + listed.flatMap(\.urls)
                return deliveryProblem(delivered.all, of: expected).map { "with \(form.testDescription): \($0)" }
            }
        }
        judgeHandedQueueChild(
            result, "load handed \(form.testDescription) (4 sources, 2 of them reporting from 2 threads at once)",
            handIn: "hand in", bookkeeping: "the library's", neverWaits: "load must never wait on it", keepsSafe: "list")
    }

    @Test("completion waits for a source that calls done 1.6 s after its last URL: a timed wait that gives up is not waiting")
    func waitsForASlowSource() {
        let slow = HeldSource()
        let quick = ListSource(urls: (0..<5).map { video(1, $0) }, style: .synchronous)
        let library = VideoLibrary(sources: [slow, quick])
        let load = WatchedLoad()
        guard callLoad(library, on: load.target, "a source that is slow to finish, and one that reports at once", completion: load.completion) else { return }
        guard let request = slow.requests.all.first else {
            recordIssue("load did not ask the slow source to enumerate before it returned; it must ask every source")
            return
        }
        let handlers = Unchecked(request)
        guard answer("the slow source reporting 5 URLs", { for i in 0..<5 { handlers.value.found(video(0, i)) } }) else { return }
        if load.arrived.happens(within: 1.6) {
            recordIssue("""
                completion ran (with \(load.delivered.all.map(\.urls.count)) URLs) while a source had not called \
                done for less than 1.6 s. A `wait(timeout:)` whose timing out is ignored — or only \
                printed — goes on as if every source had finished; completion must wait for every \
                source's done, however long it takes.
                """)
            _ = answer("the slow source's done", { handlers.value.done(nil) })
            return
        }
        guard answer("the slow source's done", { handlers.value.done(nil) }) else { return }
        guard load.arrived.wait("completion was not called within 2 s after the slow source had finished") else { return }
        settle(load.target, "after completion ran")
        expectOneDelivery(load.delivered.all, of: (0..<5).map { video(0, $0) } + quick.urls)
    }

    @Test("what each source wrote before calling done is there for completion to read")
    func completionSeesWhatSourcesWrote() {
        let held = (0..<4).map { _ in HeldSource() }
        let library = VideoLibrary(sources: held)
        let target = TestQueue()
        let marks = PlainMarks(4)
        let unmarkedSeen = Tally<Int>(), arrived = Signal()
        // As in the other tests: the library's queues wait until every source has finished and
        // `queue` has run what was scheduled on it by then.
        let busy = QueueHold(queuesOf: library, seconds: 3)
        guard callLoad(library, on: target, "4 sources that write before calling done", completion: { _ in
            let unmarked = marks.unmarked  // read first: nothing of the test's own orders it
            unmarkedSeen.append(unmarked)
            arrived.fire()
        }) else {
            busy.release()
            return
        }
        let requests = Unchecked(held.compactMap { $0.requests.all.first })
        guard requests.value.count == 4 else {
            recordIssue("load asked \(requests.value.count) of 4 sources to enumerate before it returned; it must ask every source")
            busy.release()
            return
        }
        // A completion sent to `queue` before any source has reported reads the marks now: let it,
        // before they are written, so that such an answer fails below as completing too early,
        // every run, rather than as a race between the test's own lines.
        guard settle(target, "after load returned") else {
            busy.release()
            return
        }
        // Source s reports 10 URLs from thread s, writes slot s (plain memory, no lock), then calls
        // done. The Thread Sanitizer reports completion's reads unless every done is ordered
        // before completion — as leave() and notify order them.
        guard runConcurrently(threads: 4, iterations: 1, "4 sources reporting from 4 threads", { s, _ in
            for i in 0..<10 { requests.value[s].found(video(s, i)) }
            marks.mark(s)
            requests.value[s].done(nil)
        }) else {
            busy.release()
            return
        }
        // A completion that the last done sends straight to `queue` runs now, before the test does
        // anything with `queue` (the settle below would order the sources' writes before it): give
        // it a moment, so that an answer whose count orders nothing is reported every run.
        let arrivedEarly = arrived.happens(within: 0.5)
        settle(target, "after the sources finished")
        busy.release()
        guard arrivedEarly || arrived.wait("completion was not called within 2 s after all 4 sources had finished") else { return }
        settle(target, "after completion ran")
        verify(unmarkedSeen.all == [0], """
            completion ran \(unmarkedSeen.count) times and saw \(unmarkedSeen.all) sources' writes missing; it \
            must run once, after every source's done, and see what each source wrote before calling done
            """)
    }

    @Test("two libraries at once, a third loading from the first one's completion: each delivers its own URLs")
    func twoLibrariesAtOnce() {
        let held = (0..<2).map { _ in HeldSource() }
        let libraries = held.map { VideoLibrary(sources: [$0]) }
        let third = Unchecked(VideoLibrary(sources: [ListSource(urls: (0..<5).map { video(2, $0) }, style: .synchronous)]))
        let targets = (0..<3).map { TestQueue(label: "library \($0 + 1)") }
        let delivered = (0..<3).map { _ in Tally<(urls: [URL], onQueue: Bool)>() }
        let arrived = (0..<3).map { _ in Signal() }
        let thirdReturned = Tally<Bool>()
        // As in the other tests: each library's queues wait until its sources have finished and
        // its `queue` has run what was scheduled on it by then (or 1.5 s, for an answer that
        // appends with `sync` and so waits for the held queue).
        let busy = (libraries + [third.value]).map { QueueHold(queuesOf: $0, seconds: 1.5) }
        defer { busy.forEach { $0.release() } }
        for n in 0..<2 {
            guard callLoad(libraries[n], on: targets[n], "a load of library \(n + 1) of 2", completion: { urls in
                delivered[n].append((urls, targets[n].isCurrent))
                if n == 0 {
                    thirdReturned.append(finishes(within: 1) {
                        third.value.load(queue: targets[2].queue) { urls in
                            delivered[2].append((urls, targets[2].isCurrent))
                            arrived[2].fire()
                        }
                    })
                }
                arrived[n].fire()
            }) else { return }
        }
        let requests = Unchecked(held.compactMap { $0.requests.all.first })
        guard requests.value.count == 2 else {
            recordIssue("each of two libraries must ask its source to enumerate before load returns (\(requests.value.count) of 2 did)")
            return
        }
        // Library 2's source reports first but finishes last; library 1's reports and finishes.
        guard answer("library 2's source reporting, and library 1's source reporting and finishing", {
            for i in 0..<20 { requests.value[1].found(video(1, i)) }
            for i in 0..<20 { requests.value[0].found(video(0, i)) }
            requests.value[0].done(nil)
        }) else { return }
        settle(targets[0], "after library 1's source had finished")
        busy[0].release()
        guard arrived[0].wait("""
            library 1's only source had finished, but its load did not complete within 2 s while \
            library 2 was still loading. Is the group or the list shared between libraries (a \
            `static` or global)? Every load needs its own.
            """) else { return }
        settle(targets[2], "after a load was started from library 1's completion")
        busy[2].release()
        guard arrived[2].wait("a load started from another library's completion did not complete within 2 s") else { return }
        verify(thirdReturned.all == [true], "a load started from inside another library's completion did not return within 1 s")
        guard answer("library 2's source finishing", { requests.value[1].done(nil) }) else { return }
        settle(targets[1], "after library 2's source had finished")
        busy[1].release()
        guard arrived[1].wait("library 2's load did not complete within 2 s after its source had finished") else { return }
        for target in targets { settle(target, "after the loads completed") }
        let expected = [(0..<20).map { video(0, $0) }, (0..<20).map { video(1, $0) }, (0..<5).map { video(2, $0) }]
        for n in 0..<3 {
            if let problem = deliveryProblem(delivered[n].all, of: expected[n]) {
                recordIssue(Comment(rawValue: "library \(n + 1) of 3, loading at the same time as the others: \(problem)"))
            }
        }
    }

    @Test("a library released while its load runs: the load still completes, with every URL, and nothing stops")
    func libraryReleasedWhileLoading() async {
        // In a child process: an answer that reaches the released library through `unowned self`
        // stops the program, and only this test should fail.
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 3, cutShort: cutShort) {
                let held = HeldSource()
                let quick = ListSource(urls: (0..<5).map { video(1, $0) }, style: .synchronous)
                let load = WatchedLoad()
                let busy: QueueHold
                do {
                    // The caller lets go of the library right after starting the load; the sources
                    // report later. A library released fresh, never used, goes too.
                    _ = VideoLibrary(sources: [quick])
                    let library = VideoLibrary(sources: [held, quick])
                    // As in the other tests: the library's queues wait until every source has
                    // finished and `queue` has run what was scheduled on it by then. The hold keeps
                    // the queues, not the library.
                    busy = QueueHold(queuesOf: library, seconds: 1.5)
                    library.load(queue: load.target.queue, completion: load.completion)
                }
                guard let request = held.requests.all.first else {
                    return "load did not ask every source to enumerate before it returned"
                }
                for i in 0..<10 { request.found(video(0, i)) }
                request.done(nil)
                load.target.queue.sync {}
                busy.release()
                guard load.arrived.happens(within: 2) else {
                    return childTimedOut("the caller released the library while its load ran; its completion did not come within 2 s after the last source had finished")
                }
                load.target.queue.sync {}
                return deliveryProblem(load.delivered.all, of: (0..<10).map { video(0, $0) } + quick.urls)
                    .map { "the caller released the library while its load ran: \($0)" }
            }
        }
        judgeChild(
            result, "Releasing the library while its load runs (the load must still complete)",
            ifItCrashed: """
                The program stopped after the caller let go of the library while its load ran. A \
                handler that reaches the library through `unowned self` traps once it is gone; let \
                the load's handlers keep what they need alive (a strong capture, or the queue and \
                the list themselves).
                """)
    }

    @Test("every pair of operations at the same moment: a load, and a source reporting for an earlier load", arguments: OperationPair.every(of: operations))
    func operationsOverlap(pair: OperationPair) {
        let held = (0..<2).map { _ in HeldSource() }
        let library = Unchecked(VideoLibrary(sources: held))
        let target = TestQueue()
        let iterations = 60
        let delivered = Tally<[URL]>(), all = Signal()
        let record: ([URL]) -> Void = { urls in
            delivered.append(urls)
            all.fire()
        }
        // Earlier loads, whose sources the reporting operations finish, the next one each time.
        let earlier = iterations
        let call = Unchecked(record)
        // As in the other tests: the library's queues wait until every source has finished and
        // `queue` has run what was scheduled on it by then.
        // The hold lets go by itself after 4 s, so that an answer whose `found` appends with
        // `sync` (and so waits for the held queue) still finishes within the 8 s bound below.
        let busy = QueueHold(queuesOf: library.value, seconds: 4)
        defer { busy.release() }
        guard answer("\(earlier) loads whose sources have not reported yet", {
            for _ in 0..<earlier { library.value.load(queue: target.queue, completion: call.value) }
        }) else { return }
        let parked = Unchecked(held.map { $0.requests.all })
        guard parked.value.allSatisfy({ $0.count == earlier }) else {
            recordIssue("\(earlier) loads asked their 2 sources \(parked.value.map(\.count)) times; each load must ask every source once")
            return
        }
        // Request r of source s reports the 3 clips of folder 2r + s, then says it is done.
        let report: @Sendable (Int, Int, (found: (URL) -> Void, done: (Error?) -> Void)) -> Void = { s, r, request in
            for i in 0..<3 { request.found(video(2 * r + s, i)) }
            request.done(nil)
        }
        let next = Ticket(), made = Ticket()
        let ran = overlap(pair, threads: 1, iterations: iterations, seconds: 8) { operation, _, _ in
            if operation == "report" {
                let t = next.take()
                report(t % 2, t / 2, parked.value[t % 2][t / 2])
            } else {
                _ = made.take()
                library.value.load(queue: target.queue, completion: call.value)
            }
        }
        guard ran else { return }
        // Every request no operation answered — of the earlier loads and of the new ones.
        let requests = held.map { $0.requests.all }
        for t in next.taken..<(2 * earlier) { report(t % 2, t / 2, requests[t % 2][t / 2]) }
        for s in 0..<2 {
            for r in earlier..<requests[s].count { report(s, r, requests[s][r]) }
        }
        let loads = earlier + made.taken
        settle(target, "after the sources finished")
        busy.release()
        for _ in 0..<loads {
            guard all.wait("not every one of \(loads) loads completed within 2 s after its sources had finished (\(delivered.count) did)") else { return }
        }
        settle(target, "after the loads completed")
        // Every load must get the 3 clips of one request of each source, and every folder once.
        let folders = delivered.all.map { urls in Dictionary(grouping: urls, by: { $0.deletingLastPathComponent().lastPathComponent }) }
        let whole = folders.allSatisfy { $0.count == 2 && $0.values.allSatisfy { $0.count == 3 && Set($0).count == 3 } }
        let seen = folders.flatMap(\.keys)
        verify(delivered.count == loads && whole && Set(seen).count == 2 * loads && seen.count == 2 * loads, """
            with \(pair.testDescription) at the same moment, \(loads) loads completed \(delivered.count) times; \
            each must complete once, with the 3 URLs of each of its 2 sources and nothing of another load's
            """)
    }
}

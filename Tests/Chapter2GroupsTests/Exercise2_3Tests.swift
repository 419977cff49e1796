import Chapter2Groups
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport

// Every test that reports URLs pauses the serial queues the library keeps (found through its
// stored properties), as a busy device would delay them, and lets them go on only after `queue`
// has run whatever was scheduled on it. A library whose completion does not wait for its own
// queue then delivers a short list — in every run, not once in a while.

@Suite("2.3 VideoLibrary.load(queue:completion:)")
struct Exercise2_3Tests {
    @Test("completion waits for every URL, even while the library's own queue is busy")
    func waitsForEveryURL() {
        let sources = (0..<3).map { s in ListSource(urls: (0..<40).map { video(s, $0) }, style: .synchronous) }
        let library = VideoLibrary(sources: sources)
        let target = TestQueue()
        let delivered = Tally<(urls: [URL], onQueue: Bool)>(), arrived = Signal()

        let busy = QueueHold(queuesOf: library)
        library.load(queue: target.queue) { urls in
            delivered.append((urls, target.isCurrent))
            arrived.fire()
        }
        target.queue.sync {}  // if completion was scheduled already, it has run now
        busy.release()

        arrived.wait("completion was not called within 2 s after every source had finished")
        target.queue.sync {}
        expectOneDelivery(delivered.all, of: sources.flatMap(\.urls))
    }

    @Test("four sources reporting from four threads at once")
    func sourcesOnFourThreads() {
        let held = (0..<4).map { _ in HeldSource() }
        let library = VideoLibrary(sources: held)
        let target = TestQueue()
        let delivered = Tally<(urls: [URL], onQueue: Bool)>(), arrived = Signal()

        let busy = QueueHold(queuesOf: library)
        library.load(queue: target.queue) { urls in
            delivered.append((urls, target.isCurrent))
            arrived.fire()
        }
        let requests = Unchecked(held.compactMap { $0.requests.all.first })
        guard requests.value.count == 4 else {
            Issue.record("load asked \(requests.value.count) of 4 sources to enumerate before it returned; it must ask every source")
            busy.release()
            return
        }
        // Source t reports its 250 URLs from thread t, then says it is done.
        runConcurrently(threads: 4, iterations: 250, "4 sources reporting 250 URLs each") { source, i in
            requests.value[source].found(video(source, i))
            if i == 249 { requests.value[source].done(nil) }
        }
        target.queue.sync {}
        busy.release()

        arrived.wait("completion was not called within 2 s after all 4 sources had finished")
        target.queue.sync {}
        expectOneDelivery(delivered.all, of: (0..<4).flatMap { s in (0..<250).map { video(s, $0) } })
    }

    @Test("sources that report later from their own threads, and one that fails")
    func laterSourcesAndAFailure() {
        let sources = [
            ListSource(urls: (0..<30).map { video(0, $0) }, style: .asynchronous),
            ListSource(fails: true, style: .asynchronous),
            ListSource(urls: (0..<30).map { video(2, $0) }, style: .asynchronous),
        ]
        let library = VideoLibrary(sources: sources)
        let target = TestQueue()
        let delivered = Tally<(urls: [URL], onQueue: Bool)>(), arrived = Signal()

        let busy = QueueHold(queuesOf: library)
        library.load(queue: target.queue) { urls in
            delivered.append((urls, target.isCurrent))
            arrived.fire()
        }
        for source in sources {
            guard source.finished.wait("a source did not finish reporting within 2 s; is its found or done handler blocked?") else {
                busy.release()
                return
            }
        }
        target.queue.sync {}
        busy.release()

        arrived.wait("completion was not called within 2 s after every source had finished (one of them failed — it still counts as finished)")
        target.queue.sync {}
        expectOneDelivery(delivered.all, of: sources[0].urls + sources[2].urls)
    }

    @Test("no sources, or only failing ones: completion at once, with an empty list")
    func nothingToFind() {
        for sources in [[], [ListSource(fails: true, style: .synchronous), ListSource(fails: true, style: .asynchronous)]] {
            let target = TestQueue()
            let delivered = Tally<(urls: [URL], onQueue: Bool)>(), arrived = Signal()
            VideoLibrary(sources: sources).load(queue: target.queue) { urls in
                delivered.append((urls, target.isCurrent))
                arrived.fire()
            }
            guard arrived.wait("with \(sources.count) sources that find nothing, completion was not called within 2 s") else { return }
            target.queue.sync {}
            expectOneDelivery(delivered.all, of: [])
        }
    }
}

/// Checks that completion ran exactly once, on the given queue, with exactly `expected` (in any order).
private func expectOneDelivery(
    _ deliveries: [(urls: [URL], onQueue: Bool)], of expected: [URL],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(deliveries.count == 1, "completion ran \(deliveries.count) times; it must run exactly once", sourceLocation: sourceLocation)
    guard let delivery = deliveries.first else { return }
    #expect(delivery.onQueue, "completion must run on the queue given to load", sourceLocation: sourceLocation)
    let missing = Set(expected).subtracting(delivery.urls).count
    if missing > 0 {
        Issue.record("""
            completion got \(delivery.urls.count) URLs, but the sources found \(expected.count): \(missing) \
            missing. Completion read the list while appends were still waiting on the library's serial \
            queue — does the group know about that work?
            """, sourceLocation: sourceLocation)
    } else {
        #expect(delivery.urls.count == expected.count, "completion got \(delivery.urls.count) URLs for \(expected.count) videos: some were delivered twice", sourceLocation: sourceLocation)
    }
}

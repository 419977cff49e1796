import Chapter4SerialQueues
import Testing
import WorkbookTestSupport

@Suite("4.4 EventLog — no sync inside sync")
struct Exercise4_4Tests {
    static let syncInsideSync =
        "libdispatch stops a program whose block, running on a serial queue, calls `sync` on that same queue — it would wait for itself forever (\"dispatch_sync called on queue already owned by current thread\"). Look at what `record` calls while it is inside `queue.sync`."

    @Test("flush returns what was recorded, oldest first, and empties the log")
    func flushReturnsBufferedEvents() {
        let written = Tally<[String]>()
        let log = EventLog(capacity: 10) { written.append($0) }
        log.record("a"); log.record("b"); log.record("c")
        let first = log.flush()
        #expect(first == ["a", "b", "c"], "flush() returned \(first) after recording a, b, c")
        #expect(log.flush() == [], "a second flush() must find the log empty")
        #expect(written.all.isEmpty, "write ran although the log never filled up: \(written.all)")
    }

    @Test("filling the log writes its batch out, oldest first, and the log keeps going")
    func fullLogWritesItsBatch() async {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) {
            runInChild {
                let written = Tally<[String]>()
                let log = EventLog(capacity: 3) { written.append($0) }
                for event in ["e1", "e2", "e3", "e4", "e5", "e6", "e7"] { log.record(event) }
                let rest = log.flush()
                if written.all == [["e1", "e2", "e3"], ["e4", "e5", "e6"]] && rest == ["e7"] { return nil }
                return "write got \(written.all) and flush() then returned \(rest); expected [[e1, e2, e3], [e4, e5, e6]], then [e7]"
            }
        }
        judgeChild(result, "Recording 7 events into a log of capacity 3", ifItCrashed: Self.syncInsideSync)
    }

    @Test("four threads recording at once: every event is written or flushed exactly once")
    func concurrentRecords() async {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) {
            runInChild(seconds: 3) {
                let written = Tally<[String]>()
                let log = Unchecked(EventLog(capacity: 16) { written.append($0) })
                guard runConcurrently(threads: 4, iterations: 250, "recording", { thread, iteration in
                    log.value.record("\(thread)-\(iteration)")
                }) else { return "the recording threads did not finish" }
                let all = written.all.joined() + log.value.flush()
                let expected = Set((0..<4).flatMap { thread in (0..<250).map { "\(thread)-\($0)" } })
                if all.count == 1_000 && Set(all) == expected { return nil }
                return "1 000 events were recorded, but write and a final flush() gave back \(all.count) (\(Set(all).count) different ones); each event must come back exactly once"
            }
        }
        judgeChild(result, "Four threads recording 1 000 events into a log of capacity 16", ifItCrashed: Self.syncInsideSync)
    }

    @Test("write may use the log: it runs after record has let go of the queue")
    func writeMayUseTheLog() async {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) {
            runInChild {
                var log: EventLog?
                let written = Tally<[String]>()
                log = EventLog(capacity: 2) { batch in
                    written.append(batch)
                    log?.record("wrote \(batch.count)")
                }
                log?.record("a")
                log?.record("b")
                let rest = log?.flush() ?? []
                if written.all == [["a", "b"]] && rest == ["wrote 2"] { return nil }
                return "write got \(written.all) and flush() then returned \(rest); expected [[a, b]], then [wrote 2]"
            }
        }
        judgeChild(
            result, "A write(_:) that records into its own log", ifItCrashed: Self.syncInsideSync
                + " Here `write` itself calls `record`: call `write` only after `queue.sync` has returned.")
    }
}

import Chapter4SerialQueues
import Foundation
import Testing
import WorkbookTestSupport

// Every call into EventLog runs in a child process (see Children.swift): the starter traps.

@Suite("4.4 EventLog — no sync inside sync", .gradedUnderTSan)
struct Exercise4_4Tests {
    static let syncInsideSync =
        syncOntoItsOwnQueue + "Look at what `record` calls while it is inside `queue.sync`."
    static let writeWhileHeld =
        "`write` ran while the log still held its queue (or lock): the other thread's `record` could not get in, and `write` waited for it. Where does your `record` call `write`: inside its `queue.sync`, or after it?"

    /// Checks the batches `write` got: each exactly `capacity` events, each thread's events in the
    /// order that thread recorded them. Events are named "<thread>-<number>".
    static func batchProblem(_ batches: [[String]], capacity: Int) -> String? {
        if let wrong = batches.first(where: { $0.count != capacity }) {
            return "write got a batch of \(wrong.count) events (\(wrong.prefix(4))\(wrong.count > 4 ? "…" : "")); every batch must hold exactly \(capacity) — the events that filled the log, taken out in the same block that counted them"
        }
        for batch in batches {
            var last: [Substring: Int] = [:]
            for event in batch {
                let parts = event.split(separator: "-")
                guard parts.count == 2, let number = Int(parts[1]) else { continue }
                if let before = last[parts[0]], before > number {
                    return "write got \(batch): thread \(parts[0])'s events are out of order; a batch holds events oldest first"
                }
                last[parts[0]] = number
            }
        }
        return nil
    }

    /// For a child: the batches `write` got (``batchProblem(_:capacity:)``), then whether they, the
    /// batches `flushed` and a last flush of `log` give back each of the `recorded` events exactly
    /// once. `lost(back, different)` says otherwise: how many events came back, how many different.
    static func everyEventBack(
        _ written: Tally<[String]>, _ flushed: Tally<[String]> = Tally(), from log: EventLog, capacity: Int, recorded: [String],
        lost: ((_ back: Int, _ different: Int) -> String)? = nil
    ) -> String? {
        if let problem = batchProblem(written.all, capacity: capacity) { return problem }
        let all = Array(written.all.joined()) + Array(flushed.all.joined()) + log.flush()
        if all.count == recorded.count && Set(all) == Set(recorded) { return nil }
        return lost?(all.count, Set(all).count)
            ?? "\(recorded.count) events were recorded, but write and the flushes gave back \(all.count) (\(Set(all).count) different ones); each event must come back exactly once"
    }

    /// For a child: four threads at once (``gatedThreads(threads:iterations:seconds:_:)``, at most 3 s),
    /// `rounds` rounds, on a new log of capacity 8: each records "<thread>-<round>" — but thread 3,
    /// when `flushing`, flushes instead. Then ``everyEventBack(_:_:from:capacity:recorded:lost:)``, with `lost`.
    static func fourThreadsAtOnce(
        rounds: Int, flushing: Bool,
        lost: @escaping (_ back: Int, _ different: Int) -> String
    ) -> String? {
        let written = Tally<[String]>(), flushed = Tally<[String]>()
        let log = Unchecked(EventLog(capacity: 8) { written.append($0) })
        let what = flushing ? "recording and flushing" : "recording"
        guard gatedThreads(threads: 4, iterations: rounds, seconds: 3, { thread, round in
            if flushing && thread == 3 {
                flushed.append(log.value.flush())
            } else {
                log.value.record("\(thread)-\(round)")
            }
        }) else { return childTimedOut("the 4 \(what) threads did not finish within 3 s") }
        let recorded = (0..<(flushing ? 3 : 4)).flatMap { thread in (0..<rounds).map { "\(thread)-\($0)" } }
        return everyEventBack(written, flushed, from: log.value, capacity: 8, recorded: recorded, lost: lost)
    }

    @Test("flush returns what was recorded, oldest first, and empties the log; write is not called")
    func flushReturnsBufferedEvents() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(cutShort: cutShort) {
                let written = Tally<[String]>()
                let log = EventLog(capacity: 10) { written.append($0) }
                let empty = log.flush()
                if !empty.isEmpty { return "flush() on a new log returned \(empty); it must return []" }
                log.record("a"); log.record("b"); log.record("c")
                let first = log.flush()
                if first != ["a", "b", "c"] { return "flush() returned \(first) after recording a, b, c" }
                let second = log.flush()
                if !second.isEmpty { return "a second flush() must find the log empty, but returned \(second)" }
                if !written.all.isEmpty { return "write ran although the log never filled up: \(written.all)" }
                return nil
            }
        }
        judgeChild(result, "Recording 3 events into a log of capacity 10 and flushing", ifItCrashed: Self.syncInsideSync)
    }

    @Test("the record that fills the log writes the batch, oldest first, on its own thread, before it returns")
    func fullLogWritesItsBatch() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(cutShort: cutShort) {
                let written = Tally<[String]>()
                let writers = Tally<pthread_t>()
                let log = EventLog(capacity: 3) { batch in
                    writers.append(pthread_self())
                    written.append(batch)
                }
                let me = pthread_self()
                let expected = [["e1", "e2", "e3"], ["e4", "e5", "e6"]]
                for (index, event) in ["e1", "e2", "e3", "e4", "e5", "e6", "e7"].enumerated() {
                    log.record(event)
                    let due = Array(expected.prefix((index + 1) / 3))
                    if written.all != due {
                        return "after record(\"\(event)\") returned, write had got \(written.all); expected \(due). The record that fills the log calls write, before it returns"
                    }
                }
                if !writers.all.allSatisfy({ sameThread($0, me) }) {
                    return "write ran on another thread; it must run on the thread whose record filled the log"
                }
                let rest = log.flush()
                if rest != ["e7"] { return "after 7 events in a log of capacity 3, flush() returned \(rest); expected [e7]" }

                // A capacity below 1 counts as 1: every record writes its own event.
                let single = Tally<[String]>()
                let log0 = EventLog(capacity: 0) { single.append($0) }
                log0.record("x"); log0.record("y")
                if single.all != [["x"], ["y"]] { return "a log made with capacity 0 (counted as 1) wrote \(single.all) for x, y; expected [[x], [y]]" }
                return nil
            }
        }
        judgeChild(result, "Recording 7 events into a log of capacity 3", ifItCrashed: Self.syncInsideSync)
    }

    @Test("four threads recording at once: every event is written or flushed exactly once, in full batches")
    func concurrentRecords() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                Exercise4_4Tests.fourThreadsAtOnce(rounds: 500, flushing: false) { back, different in
                    "2 000 events were recorded, but write and a final flush() gave back \(back) (\(different) different ones); each event must come back exactly once"
                }
            }
        }
        judgeChild(result, "Four threads recording 2 000 events into a log of capacity 8", ifItCrashed: Self.syncInsideSync)
    }

    @Test("records that waited together behind a busy queue: every batch is exactly full")
    func recordsQueuedBehindABusyQueue() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                // Capacity 1: every record fills the log. Three records wait on the log's queue while
                // the test holds it; released, their blocks run one after another, in the order they
                // arrived. A record that learns "full" in one block and takes the batch out in a later
                // one has let the next record add its event in between: a batch of 2, then an empty one.
                for round in 0..<10 {
                    let written = Tally<[String]>()
                    let log = Unchecked(EventLog(capacity: 1) { written.append($0) })
                    // A log built on a lock has no queue to hold; the concurrent tests cover it.
                    let problem = whileQueueHeld(of: log.value, by: "a block the test put on the log's queue") { release in
                        let finished = Tally<Int>(), allReturned = Signal()
                        for thread in 0..<3 {
                            startThread {
                                log.value.record("\(thread)-\(round)")
                                finished.append(thread)
                                if finished.count == 3 { allReturned.fire() }
                            }
                        }
                        // Not a synchronization of the code under test: time for the three threads to reach
                        // the busy queue, so that their blocks wait there together.
                        Thread.sleep(forTimeInterval: 0.05)
                        release.fire()
                        guard allReturned.happens(within: 2) else {
                            return childTimedOut("three record calls did not return within 2 s of the log's queue being free")
                        }
                        return Exercise4_4Tests.batchProblem(written.all, capacity: 1).map { "three records waited together behind the log's busy queue; then " + $0 }
                    }
                    if let problem { return problem }
                }
                return nil
            }
        }
        judgeChild(result, "Recording into a log of capacity 1 from three threads queued behind a busy queue", ifItCrashed: Self.syncInsideSync)
    }

    @Test("flush from another thread while three threads record: every event comes back exactly once")
    func flushWhileRecording() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                Exercise4_4Tests.fourThreadsAtOnce(rounds: 400, flushing: true) { back, different in
                    "1 200 events were recorded while another thread flushed, but write and the flushes gave back \(back) (\(different) different ones); each event must come back exactly once — flush empties the buffer on the queue too"
                }
            }
        }
        judgeChild(result, "Flushing while three threads record", ifItCrashed: Self.syncInsideSync)
    }

    @Test("two threads taking turns recording and flushing: every event comes back exactly once")
    func threadsTakingTurns() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                guard #available(macOS 15.0, *) else { return nil }
                let written = Tally<[String]>()
                let flushed = Tally<[String]>()
                let log = Unchecked(EventLog(capacity: 2) { written.append($0) })
                // Turn 2i + thread: thread 1 records "1-i"; thread 0 records "0-i", or flushes every
                // third time. Only the log's queue can order one thread's access to the buffer after
                // the other's; nothing else here does. So any access made off the queue — an emptying
                // or a flush that skips it — is reported, every run.
                let problem = Turns.take(rounds: 150, gated: "the two threads taking turns", missed: { "turn \($0) never came" }) { thread, round, _ in
                    if thread == 0 && round % 3 == 2 {
                        flushed.append(log.value.flush())
                    } else {
                        log.value.record("\(thread)-\(round)")
                    }
                    return nil
                }
                if let problem { return problem }
                let recorded = (0..<150).map { "1-\($0)" } + (0..<150).filter { $0 % 3 != 2 }.map { "0-\($0)" }
                return Exercise4_4Tests.everyEventBack(written, flushed, from: log.value, capacity: 2, recorded: recorded)
            }
        }
        judgeChild(result, "Two threads taking turns recording and flushing", ifItCrashed: Self.syncInsideSync)
    }

    @Test("write may use the log: it runs after record has let go of the queue")
    func writeMayUseTheLog() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(cutShort: cutShort) {
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
                + " Here `write` itself calls `record`.")
    }

    @Test("write may wait for another thread that uses the log")
    func writeMayWaitForAnotherThread() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(cutShort: cutShort) {
                let written = Tally<[String]>()
                let holder = LogHolder()
                holder.log = EventLog(capacity: 2) { batch in
                    written.append(batch)
                    // Hand the log to another thread, and wait for it — as code that delivers the
                    // batch somewhere else might. This waits longer than the child's bound: if that
                    // thread cannot get in, the child hangs, as a real program would.
                    let other = startThreadSignalling { holder.log?.record("from another thread") }
                    _ = other.happens(within: 10)
                }
                holder.log?.record("a")
                holder.log?.record("b")
                let rest = holder.log?.flush() ?? []
                if written.all == [["a", "b"]] && rest == ["from another thread"] { return nil }
                return "write got \(written.all) and flush() then returned \(rest); expected [[a, b]], then [from another thread]"
            }
        }
        judgeChild(result, "A write(_:) that waits for another thread's record", ifItCrashed: Self.syncInsideSync,
              ifItHung: Self.writeWhileHeld)
    }
}

/// Lets a `write` closure reach the log it belongs to, from any thread. Set once, before the log is
/// used; threads started later see it.
final class LogHolder: @unchecked Sendable {
    var log: EventLog?
}

// The dimensions of issue 15: every pair of record and flush at once, two logs at once, a write
// that calls back in (same thread, another thread) or blocks for long, and a log released while
// records wait on its queue.
// Every clause, in generated scenarios (capacities below 1 to 1 000, callers everywhere, the main
// queue too, a write that uses the log while others wait): explored (Exercise4_4Tests+Explored.swift).
extension Exercise4_4Tests {
    /// The log's operations, as the pair test names them.
    static let operations = ["record", "flush"]

    @Test("every pair of record and flush at the same moment: every event comes back exactly once, in full batches")
    func everyPairAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) {
                runEveryPairAtOnce(Exercise4_4Tests.operations) { pair in
                    let written = Tally<[String]>(), flushed = Tally<[String]>()
                    let log = Unchecked(EventLog(capacity: 4) { written.append($0) })
                    let recorded = Tally<String>()
                    let call: @Sendable (String, Int, Int) -> String? = { operation, thread, iteration in
                        if operation == "record" {
                            log.value.record("\(thread)-\(iteration)")
                            recorded.append("\(thread)-\(iteration)")
                        } else {
                            flushed.append(log.value.flush())
                        }
                        return nil
                    }
                    let check: () -> String? = {
                        Exercise4_4Tests.everyEventBack(written, flushed, from: log.value, capacity: 4, recorded: recorded.all)
                    }
                    return (call, check)
                }
            }
        }
        judgeChild(result, "Every pair of record and flush at the same moment", ifItCrashed: Self.syncInsideSync)
    }

    @Test("two logs at once keep their own events, and one log's write may record into the other")
    func twoLogsAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let holder = LogHolder()
                let writtenOne = Tally<[String]>(), writtenTwo = Tally<[String]>()
                let two = Unchecked(EventLog(capacity: 2) { writtenTwo.append($0) })
                // One log's write records a note into the other, as a log that reports on itself might.
                holder.log = EventLog(capacity: 2) { batch in
                    writtenOne.append(batch)
                    two.value.record("one wrote \(batch.count)")
                }
                guard let log = holder.log else { return nil }
                let one = Unchecked(log)
                one.value.record("a")
                two.value.record("x")
                one.value.record("b")
                if writtenOne.all != [["a", "b"]] {
                    return "a log of capacity 2 got a, then (another log got x), then b; its write got \(writtenOne.all), expected [[a, b]]. Each log keeps its own buffer: a stored property of the instance — no `static` buffer, no global"
                }
                if writtenTwo.all != [["x", "one wrote 2"]] {
                    return "the first log's write recorded \"one wrote 2\" into a second log that held x; the second log's write got \(writtenTwo.all), expected [[x, one wrote 2]]"
                }
                // Both logs from four threads at once: each log's batches hold only its own events.
                guard gatedThreads(threads: 4, iterations: 200, seconds: 3, { thread, iteration in
                    (thread.isMultiple(of: 2) ? one : two).value.record("\(thread)-\(iteration)")
                }) else { return childTimedOut("two logs recorded into by four threads did not finish within 3 s") }
                let oneEvents = writtenOne.all.dropFirst().joined() + one.value.flush()
                if let stranger = oneEvents.first(where: { !$0.hasPrefix("0-") && !$0.hasPrefix("2-") }) {
                    return "the first log gave back \"\(stranger)\", an event recorded into the second; each log keeps its own buffer"
                }
                return nil
            }
        }
        judgeChild(result, "Two logs at once", ifItCrashed: Self.syncInsideSync, ifItHung: Self.writeWhileHeld)
    }

    @Test("write may flush the log, on its own thread and by waiting for another thread that does")
    func writeMayFlush() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                for onAnotherThread in [false, true] {
                    let holder = LogHolder()
                    let written = Tally<[String]>(), flushedInWrite = Tally<[String]>()
                    holder.log = EventLog(capacity: 2) { batch in
                        written.append(batch)
                        if onAnotherThread {
                            let done = startThreadSignalling { flushedInWrite.append(holder.log?.flush() ?? []) }
                            // Longer than the child's bound: a flush that cannot get in hangs the child.
                            _ = done.happens(within: 10)
                        } else {
                            flushedInWrite.append(holder.log?.flush() ?? [])
                        }
                    }
                    holder.log?.record("a")
                    holder.log?.record("b")
                    let rest = holder.log?.flush() ?? []
                    let how = onAnotherThread ? "waited for another thread's flush()" : "called flush()"
                    if written.all != [["a", "b"]] || flushedInWrite.all != [[]] || !rest.isEmpty {
                        return "a write that \(how) got \(written.all); that flush returned \(flushedInWrite.all.first.map { "\($0)" } ?? "nothing") and a flush afterwards \(rest); expected [[a, b]], then [] (the batch was already taken out), then []"
                    }
                }
                return nil
            }
        }
        judgeChild(result, "A write(_:) that flushes its own log", ifItCrashed: Self.syncInsideSync
                       + " Here `write` itself calls `flush`.",
                   ifItHung: Self.writeWhileHeld)
    }

    // A log that keeps its queue (or lock) while `write` runs, but waits for it with a timeout and
    // goes on anyway, lets the other threads in only when the timeout ends: the write here blocks for
    // 1.5 s, longer than any such timeout a learner would pick, and every other call must return long
    // before.

    @Test("a write that blocks for long does not hold up the other threads' record and flush")
    func writeBlockingForLong() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 5, cutShort: cutShort) {
                let inWrite = Signal(), release = Signal()
                let log = Unchecked(EventLog(capacity: 2) { _ in
                    inWrite.fire()
                    _ = release.happens(within: 1.5)
                })
                startThread {
                    log.value.record("a")
                    log.value.record("b")
                }
                guard inWrite.happens(within: 2) else { return childTimedOut("the record that filled a log of capacity 2 did not call write within 2 s") }
                defer { release.fire() }
                let started = DispatchTime.now()
                guard finishes(within: 1.4, { log.value.record("c"); _ = log.value.flush() }) else {
                    return "while one thread's write was running (for 1.5 s), another thread's record and flush did not return within 1.4 s: the log still held its queue (or lock) during write — or waited for it with a timeout and went on only when that ran out. Call write after the log has let go of its queue."
                }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
                if seconds > 0.5 {
                    return "while one thread's write was running, another thread's record and flush took \(String(format: "%.1f", seconds)) s: they waited for the queue (or lock) the write's caller held — perhaps with a timeout that ran out. Call write after the log has let go of its queue."
                }
                return nil
            }
        }
        judgeChild(result, "Recording and flushing while a write blocks for long", ifItCrashed: Self.syncInsideSync, ifItHung: Self.writeWhileHeld)
    }

    @Test("a log let go while records wait on its queue: every waiting record writes its batch, and nothing traps")
    func releasedWhileRecordsWait() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 6, cutShort: cutShort) {
                let written = Tally<[String]>()
                if let problem = releasedWhileWorkWaits({ EventLog(capacity: 1) { written.append($0) } }, "record(\"late\")", { log in
                    log.record("late")
                }) { return problem }
                // A fresh log, a used one and the held one: one "late" batch from each record made (a log
                // built on a lock has no queue to hold, and only the used one records).
                let records = queueProperty(of: EventLog(capacity: 1) { _ in }) == nil ? 1 : 2
                if written.all.count != records || !written.all.allSatisfy({ $0 == ["late"] }) {
                    return "\(records) records into logs of capacity 1, the last one waiting while its log was let go, wrote \(written.all); expected one [late] batch each"
                }
                return nil
            }
        }
        judgeChild(result, "Letting a log go while a record waits on its queue", ifItCrashed: Self.syncInsideSync)
    }
}

import Chapter4SerialQueues
import Foundation
import Testing
import WorkbookTestSupport

// Every call into SettingsCache runs in a child process (see Children.swift): a barrier block that
// `sync`s onto its own queue traps, and a barrier `sync` inside a read hangs.
//
// A starter that races on its `Dictionary` must fail with a report, not a crash. So keys and values
// are short (at most 15 bytes: Swift stores them inline, with no memory to free), every key exists
// before the threads start (no thread resizes the table), and a reader never runs *at the same
// time* as a writer (a write may then copy the table and free the one a reader is about to use) —
// it takes turns with the writer instead, which still leaves the sanitizer two unordered accesses.

@Suite("4.3 SettingsCache — reads side by side, writes alone", .gradedUnderTSan)
struct Exercise4_3Tests {
    static let syncInsideSync =
        "libdispatch stops a program whose block calls `sync` on the queue that block is running on — a barrier holds the whole queue, so even a plain `queue.sync` from inside it would wait for itself. Inside your blocks on `queue`: which call asks for the queue again?"
    static let waitsForItself =
        "A block running on the cache's queue waits for the same queue: a `sync(flags: .barrier)` inside a read (or any block of `queue`) waits for that very block to finish, forever."

    /// For a child: a new cache, `value` written for `key` and read back, whose queue a read of the
    /// test's own (a plain block) then holds while `body` runs, until `body` fires `release`
    /// (``whileQueueHeld(of:by:barrier:ifNoQueue:_:)``). A design without the starter's `queue` cannot
    /// be held: the other tests still judge it (`nil`).
    static func withQueueHeld(
        _ value: String, forKey key: String,
        _ body: (Unchecked<SettingsCache>, _ release: Signal) -> String?
    ) -> String? {
        let cache = Unchecked(SettingsCache())
        guard queueProperty(of: cache.value) != nil else { return nil }
        cache.value.setValue(value, forKey: key)
        guard cache.value.value(forKey: key) == value else { return "a read right after a write did not see it" }
        return whileQueueHeld(of: cache.value, by: "a read the test put on the cache's queue") { release in body(cache, release) }
    }

    @Test("a value set is read back, on this thread and another; nil removes it")
    func readsBackWhatWasSet() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(cutShort: cutShort) {
                let cache = Unchecked(SettingsCache())
                if let value = cache.value.value(forKey: "theme") { return "a new cache must hold no values, but theme read \"\(value)\"" }
                cache.value.setValue("dark", forKey: "theme")
                let here = cache.value.value(forKey: "theme")
                if here != "dark" {
                    return "value(forKey:) right after setValue(\"dark\", forKey:) read \(here ?? "nil"); a read after a write must see it"
                }
                let seen = Tally<String?>()
                guard finishes({ seen.append(cache.value.value(forKey: "theme")) }) else { return "a thread reading the cache did not finish within 2 s" }
                if seen.all != ["dark"] { return "another thread read \(seen.all.first.map { $0 ?? "nil" } ?? "nothing") after the write; it must read \"dark\"" }

                // A write made on another thread is seen here once it has returned.
                guard finishes({ cache.value.setValue("light", forKey: "theme") }) else { return "setValue on another thread did not return within 2 s" }
                let after = cache.value.value(forKey: "theme")
                if after != "light" { return "another thread's setValue(\"light\", forKey:) returned; this thread then read \(after ?? "nil")" }

                cache.value.setValue(nil, forKey: "theme")
                if let left = cache.value.value(forKey: "theme") { return "setValue(nil, forKey:) must remove the key, but it still reads \"\(left)\"" }
                return nil
            }
        }
        judgeChild(result, "Writing and reading one setting", ifItCrashed: Self.syncInsideSync, ifItHung: Self.waitsForItself)
    }

    @Test("a read does not wait for another read that is still running")
    func readsRunSideBySide() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                // The test's own read: a plain block on the cache's queue that stays there.
                Exercise4_3Tests.withQueueHeld("on", forKey: "sync") { cache, release in
                    let seen = Tally<String?>()
                    let returned = startThreadSignalling { seen.append(cache.value.value(forKey: "sync")) }
                    let sideBySide = returned.happens(within: 1)
                    release.fire()
                    guard sideBySide else {
                        return "value(forKey:) waited while another read was running on the cache's queue: reads do not run side by side. What kind of queue is yours, and how is a read submitted to it?"
                    }
                    if seen.all != ["on"] { return "a read next to another read returned \(seen.all.first.map { $0 ?? "nil" } ?? "nothing"); it must return \"on\"" }
                    return nil
                }
            }
        }
        judgeChild(result, "Reading while another read runs", ifItCrashed: Self.syncInsideSync, ifItHung: Self.waitsForItself)
    }

    @Test("a writer and a reader on two threads, taking turns; some writes remove the key")
    func readerTakingTurnsWithWriter() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                guard #available(macOS 15.0, *) else { return nil }
                let cache = Unchecked(SettingsCache())
                let keys = (0..<8).map { "k\($0)" }
                for key in keys { cache.value.setValue("v-start", forKey: key) }
                // Turn 2i: the writer writes value i — or removes the key, every 4th time; turn 2i+1:
                // the reader reads it back. Only the cache's queue can order a read after the write
                // before it; nothing else here does.
                return Turns.take(
                    rounds: 200, gated: "the writer and the reader taking turns", missed: { "turn \($0) never came" },
                    problems: { "the reader did not see the write just before it: \($0.prefix(3))" }
                ) { thread, round, _ in
                    let key = keys[round % keys.count]
                    let expected: String? = round % 4 == 3 ? nil : "v\(round)"
                    if thread == 0 {
                        cache.value.setValue(expected, forKey: key)
                        return nil
                    }
                    let seen = cache.value.value(forKey: key)
                    return seen == expected ? nil : "read \(seen ?? "nil") right after \(expected.map { "\($0) was written" } ?? "the key was removed")"
                }
            }
        }
        judgeChild(result, "A writer and a reader taking turns", ifItCrashed: Self.syncInsideSync, ifItHung: Self.waitsForItself)
    }

    @Test("reads arriving from GCD work items while a write waits: all of them finish")
    func readsFromWorkItemsBehindAWrite() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 5, cutShort: cutShort) {
                // 1. The test's own read holds the cache's queue, so the next write has to wait.
                Exercise4_3Tests.withQueueHeld("old", forKey: "mode") { cache, release in
                    // 2. A write arrives from a thread of the test. It may return at once or wait for
                    //    the read; either way, nothing else writes while the readers below run.
                    let wrote = startThreadSignalling { cache.value.setValue("new", forKey: "mode") }
                    _ = wrote.happens(within: 0.2)
                    // 3. Forty reads arrive as GCD work items, as they would from an app's own queues.
                    //    Each one takes a worker thread of libdispatch's pool and waits there, in
                    //    `value(forKey:)`, behind the write.
                    let readers = DispatchQueue(label: "workbook.test.readers", attributes: .concurrent)
                    let group = DispatchGroup()
                    let seen = Tally<String?>()
                    for _ in 0..<40 {
                        readers.async(group: group) { seen.append(cache.value.value(forKey: "mode")) }
                    }
                    // Not a synchronization of the code under test: time for the readers to reach it.
                    Thread.sleep(forTimeInterval: 0.1)
                    // 4. The queue is free: the write, then every read, must now be able to run.
                    release.fire()
                    guard group.wait(timeout: .now() + 2) == .success else {
                        return childTimedOut("40 reads sent from GCD work items were still waiting 2 s after the cache's queue became free. They hold the pool's worker threads while they wait behind the write; a write that needs a worker of its own to run cannot start, and on Linux the pool grows by about one thread a second. Read \"Blocked workers\" in the chapter's README.")
                    }
                    guard wrote.happens(within: 1) else {
                        return childTimedOut("setValue did not return within 1 s after the reads behind it had finished")
                    }
                    if let odd = seen.all.first(where: { $0 != "old" && $0 != "new" }) {
                        return "a read returned \(odd ?? "nil"); only \"old\" and \"new\" were ever stored"
                    }
                    return nil
                }
            }
        }
        judgeChild(result, "Forty reads from GCD work items behind a waiting write", ifItCrashed: Self.syncInsideSync, ifItHung: Self.waitsForItself)
    }

    // The two writers take turns (``Turns``: a relaxed atomic, which orders nothing for the Thread
    // Sanitizer), so only the cache's own synchronization can order one write after the other: a
    // write made without it is reported every run, and no two writes ever really overlap — two
    // overlapping unguarded writes can corrupt the dictionary and hang or crash the child first. A
    // `sync(flags: .barrier)` on a *global* queue (which ignores the flag) is reported by TSan only
    // when two writes really overlap, since TSan takes the flag at its word; that mistake is caught,
    // every run, by the test of reads from GCD work items (the write waits for the global pool).

    @Test("two threads write, taking turns that only the cache can order: every key keeps its last value")
    func twoWritersAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                guard #available(macOS 15.0, *) else { return nil }
                let cache = Unchecked(SettingsCache())
                let keys = [(0..<4).map { "a\($0)" }, (0..<4).map { "b\($0)" }]
                for key in keys.joined() { cache.value.setValue("start", forKey: key) }
                let problem = Turns.take(
                    rounds: 500, gated: "the two writers", missed: { childTimedOut("two threads writing settings in turns: turn \($0) never came") }
                ) { thread, round, _ in
                    cache.value.setValue("w\(round)", forKey: keys[thread][round % 4])
                    return nil
                }
                if let problem { return problem }
                for key in keys.joined() {
                    let index = Int(key.dropFirst())!
                    let value = cache.value.value(forKey: key)
                    if value != "w\(496 + index)" {
                        return "after both writers finished, \(key) holds \(value ?? "nil"); the last value written was w\(496 + index)"
                    }
                }
                return nil
            }
        }
        judgeChild(result, "Two threads writing in turns", ifItCrashed: Self.syncInsideSync, ifItHung: Self.waitsForItself)
    }
}

// The dimensions of issue 15: every pair of reading, writing and removing, two caches at once, and
// a cache released while work waits on its queue.
// Every clause about values, in generated scenarios (callers everywhere, the main queue too,
// values at their edges; each read held to the run's history): explored (Exercise4_3Tests+Explored.swift).
extension Exercise4_3Tests {
    /// The cache's operations, as the pair test names them.
    static let operations = ["value", "setValue", "remove"]

    // Two reads really overlap, on four threads. A pair with a write takes turns (``Turns``) that only
    // the cache can order, as the chapter's other tests do: a write that really overlaps another
    // access without exclusion can free the table the other is using (copy-on-write) and crash the
    // child before the Thread Sanitizer says anything — also for a design the sanitizer believes
    // (a barrier on a global queue); in turns, every unguarded access is reported, every run.

    @Test("every pair of value, setValue and removal: two reads at the same moment, a write in turns only the cache orders")
    func everyPairAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) {
                guard #available(macOS 15.0, *) else { return nil }
                return runEveryPairAtOnce(Exercise4_3Tests.operations) { pair in
                    // Short keys and values (stored inline), every key there before the threads start.
                    let cache = Unchecked(SettingsCache())
                    let keys = (0..<8).map { "k\($0)" }
                    for key in keys { cache.value.setValue("start", forKey: key) }
                    let withWrite = pair.first != "value" || pair.second != "value"
                    let turns = Turns()
                    let call: @Sendable (String, Int, Int) -> String? = { operation, thread, iteration in
                        let key = keys[(iteration + thread * 4) % keys.count]
                        let access = { () -> String? in
                            switch operation {
                            case "value":
                                if let seen = cache.value.value(forKey: key), seen != "start", !seen.hasPrefix("w") {
                                    return "value(forKey: \"\(key)\") returned \"\(seen)\", which nobody stored"
                                }
                            case "setValue": cache.value.setValue("w\(iteration)", forKey: key)
                            default: cache.value.setValue(nil, forKey: key)
                            }
                            return nil
                        }
                        guard withWrite else { return access() }
                        // In a pair with a write, threads 0 (the first operation) and 1 (the second) take
                        // turns; the other two sit this pair out.
                        guard thread < 2 else { return nil }
                        var problem: String?
                        if let missed = turns.take(thread, inRound: iteration, { _ in problem = access() }) {
                            return childTimedOut("turn \(missed) never came")
                        }
                        return problem
                    }
                    let check: () -> String? = {
                        // Every key holds what some write left: "start", "w…", or nothing.
                        for key in keys {
                            if let value = cache.value.value(forKey: key), value != "start", !value.hasPrefix("w") {
                                return "after every thread had returned, \(key) holds \"\(value)\", which nobody stored"
                            }
                        }
                        return nil
                    }
                    return (call, check)
                }
            }
        }
        judgeChild(result, "Every pair of value, setValue and removal", ifItCrashed: Self.syncInsideSync, ifItHung: Self.waitsForItself)
    }

    @Test("two caches at once keep two sets of values, and one cache's write does not hold up the other")
    func twoCachesAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let one = Unchecked(SettingsCache()), two = Unchecked(SettingsCache())
                one.value.setValue("dark", forKey: "theme")
                if let seen = two.value.value(forKey: "theme") {
                    return "setValue(\"dark\", forKey: \"theme\") on one cache, and a second cache then read \"\(seen)\" for theme. Each cache keeps its own values: `storage` is a stored property of the instance — no `static` storage, no global"
                }
                two.value.setValue("light", forKey: "theme")
                if one.value.value(forKey: "theme") != "dark" {
                    return "a write to a second cache changed the first cache's theme to \(one.value.value(forKey: "theme") ?? "nil"); each cache keeps its own values"
                }
                // One cache's queue held by a write (a barrier) does not hold up the other cache.
                return whileQueueHeld(of: one.value, by: "a barrier the test put on a cache's queue", barrier: true) { _ in
                    guard finishes(within: 1, { two.value.setValue("blue", forKey: "accent"); _ = two.value.value(forKey: "accent") }) else {
                        return "writing and reading one cache waited while another cache's queue ran a write: every cache needs a queue of its own (an instance property, not a `static` one shared by all caches)"
                    }
                    return nil
                }
            }
        }
        judgeChild(result, "Two caches at once", ifItCrashed: Self.syncInsideSync, ifItHung: Self.waitsForItself)
    }

    @Test("a cache let go while a write waits on its queue: the write finishes, and nothing traps")
    func releasedWhileAWriteWaits() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 6, cutShort: cutShort) {
                releasedWhileWorkWaits({ SettingsCache() }, "setValue(\"late\", forKey: \"mode\")") { cache in
                    cache.setValue("late", forKey: "mode")
                }
            }
        }
        judgeChild(
            result, "Letting a cache go while a write waits on its queue",
            ifItCrashed: "If the write is queued with `async`: that block may run after the cache's last reference is gone, and reading an `unowned` reference to a cache that is gone traps. What does your block hold? Otherwise: "
                + Self.syncInsideSync,
            ifItHung: Self.waitsForItself)
    }
}

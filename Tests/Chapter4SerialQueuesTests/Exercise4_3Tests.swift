import Chapter4SerialQueues
import Testing
import WorkbookTestSupport

// A starter that races on its `Dictionary` must fail with a report, not a crash. So keys and values
// are short (at most 15 bytes: Swift stores them inline, with no memory to free), every key exists
// before the threads start (no thread resizes the table), and a reader never runs *at the same
// time* as a writer (a write may then copy the table and free the one a reader is about to use) —
// it takes turns with the writer instead, which still leaves the sanitizer two unordered accesses.

// Serialized: a test blocked in `runConcurrently` holds one of the process's few dispatch worker
// threads, and a solution's `async(flags: .barrier)` needs a free one. Two such tests at once
// left the barriers waiting ~1 s for libdispatch to add a worker.
@Suite("4.3 SettingsCache — reads side by side, writes alone", .serialized)
struct Exercise4_3Tests {
    @Test("a value set is read back, on this thread and another; nil removes it")
    func readsBackWhatWasSet() {
        let cache = SettingsCache()
        #expect(cache.value(forKey: "theme") == nil, "a new cache must hold no values")
        cache.setValue("dark", forKey: "theme")
        #expect(cache.value(forKey: "theme") == "dark", "value(forKey:) right after setValue(_:forKey:) must see the new value")

        let shared = Unchecked(cache)
        let seen = Tally<String?>(), done = Signal()
        startThread {
            seen.append(shared.value.value(forKey: "theme"))
            done.fire()
        }
        done.wait("a thread reading the cache did not finish within 2 s")
        #expect(seen.all == ["dark"], "another thread read \(seen.all) after the write; it must read [\"dark\"]")

        cache.setValue(nil, forKey: "theme")
        #expect(cache.value(forKey: "theme") == nil, "setValue(nil, forKey:) must remove the key")
    }

    @Test("a writer and a reader on two threads, taking turns")
    @available(macOS 15.0, *)
    func readerTakingTurnsWithWriter() {
        let cache = Unchecked(SettingsCache())
        let keys = (0..<8).map { "k\($0)" }
        for key in keys { cache.value.setValue("v-start", forKey: key) }
        // Turn 2i: the writer writes value i; turn 2i+1: the reader reads it back. Only the cache's
        // queue can order a read after the write before it; nothing else here does.
        let turns = Turns()
        let problems = Tally<String>()
        runConcurrently(threads: 2, iterations: 200, "a writer and a reader taking turns") { thread, iteration in
            let key = keys[iteration % keys.count]
            guard turns.wait(for: 2 * iteration + thread) else {
                problems.append("turn \(2 * iteration + thread) never came")
                return
            }
            if thread == 0 {
                cache.value.setValue("v\(iteration)", forKey: key)
            } else {
                let seen = cache.value.value(forKey: key)
                if seen != "v\(iteration)" { problems.append("read \(seen ?? "nil") right after v\(iteration) was written") }
            }
            turns.pass(to: 2 * iteration + thread + 1)
        }
        #expect(problems.all.isEmpty, "the reader did not see the write just before it: \(problems.all.prefix(3))")
    }

    @Test("two threads write at once: every key keeps its last value")
    func twoWritersAtOnce() {
        let cache = Unchecked(SettingsCache())
        let keys = [(0..<4).map { "a\($0)" }, (0..<4).map { "b\($0)" }]
        for key in keys.joined() { cache.value.setValue("start", forKey: key) }
        runConcurrently(threads: 2, iterations: 500, "two threads writing settings") { thread, iteration in
            cache.value.setValue("w\(iteration)", forKey: keys[thread][iteration % 4])
        }
        for key in keys.joined() {
            let index = Int(key.dropFirst())!
            let value = cache.value.value(forKey: key)
            #expect(value == "w\(496 + index)", "after both writers finished, \(key) holds \(value ?? "nil"); the last value written was w\(496 + index)")
        }
    }
}

import Chapter5BuggyCounter
import Testing
import WorkbookTestSupport

// Each test runs HitCounter in a child process (an exit test): a wrong answer that traps — a
// `queue.sync` onto the queue the code is already running on — then fails that test alone, and
// the rest of the chapter is still graded. Every clause, in generated scenarios (increments and
// reads from callers everywhere, the main queue too, each read held to the run's history):
// explored (Exercise5_1Tests+Explored.swift).

@Suite("5.1 HitCounter", .gradedUnderTSan)
struct Exercise5_1Tests {
    static let trapAdvice =
        "A trap here usually means `queue.sync` was called from code already running on that same serial queue — for instance `increment()` reading `value` inside its own `queue.sync` — which could never be served, so libdispatch stops the program (on Linux with a bare trap and no message). See the pitfall at the end of Exercise 5.1 in the lesson."

    @Test("a new counter is at zero, and each increment() is counted by the time it returns")
    func countsEachIncrementAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(cutShort: cutShort) {
                let counter = HitCounter()
                let start = counter.value
                if start != 0 { return "a new HitCounter has value \(start); it must start at 0" }
                for calls in 1...1_000 {
                    counter.increment()
                    let seen = counter.value
                    if seen != calls {
                        return "after \(calls) increment() calls on one thread, value was \(seen). increment() must have counted its hit when it returns (no work left for later on another queue)."
                    }
                }
                return nil
            }
        }
        judgeChild(result, "incrementing and reading a HitCounter on one thread", ifItCrashed: Self.trapAdvice)
    }

    @Test("four threads incrementing together lose no hit")
    func concurrentIncrementsAreExact() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let counter = Unchecked(HitCounter())
                guard runConcurrently(threads: 4, iterations: 1_000, "4 000 increment() calls", seconds: 3, { _, _ in
                    counter.value.increment()
                }) else { return "the 4 threads calling increment() did not finish" }
                let total = counter.value.value
                if total == 4_000 { return nil }
                return "4 threads × 1 000 increment() calls gave value \(total); it must be 4 000. A hit is lost when two threads both read the old count before either writes, and nothing orders one thread's read-add-write against another's. See \"A counter is shared state\" in the lesson."
            }
        }
        judgeChild(result, "4 threads called increment() 1 000 times each", ifItCrashed: Self.trapAdvice)
    }

    @Test("reading value while others increment is safe, and value never goes backwards")
    func readsDuringIncrements() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let counter = Unchecked(HitCounter())
                let backwards = Tally<(Int, Int)>()
                guard runConcurrently(threads: 4, iterations: 500, "reading and incrementing together", seconds: 3, { thread, _ in
                    if thread < 2 {
                        counter.value.increment()
                    } else {
                        let first = counter.value.value
                        let second = counter.value.value
                        if second < first { backwards.append((first, second)) }
                    }
                }) else { return "the threads reading value and calling increment() did not finish" }
                if let (first, second) = backwards.all.first {
                    return "value went backwards while other threads incremented: one thread read \(first), then \(second)"
                }
                let total = counter.value.value
                if total != 1_000 { return "2 threads × 500 increment() calls (with 2 threads reading) gave value \(total); it must be 1 000" }
                return nil
            }
        }
        judgeChild(result, "2 threads read value while 2 others called increment()", ifItCrashed: Self.trapAdvice)
    }

    // MARK: - Dimensions (issue 15; chapter.json says which test covers which)

    /// HitCounter's public operations, as the overlap test pairs them.
    static let operations = ["increment()", "value"]

    @Test("every pair of operations at the same moment", arguments: OperationPair.every(of: Self.operations).map { [$0.first, $0.second] })
    func everyPairAtOnce(_ pair: [String]) async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [pair, cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let counter = Unchecked(HitCounter())
                // Each thread notes only its own last read; they are looked at after all have finished.
                let lastRead = Unchecked(UnsafeMutablePointer<Int>.allocate(capacity: 4))
                lastRead.value.initialize(repeating: 0, count: 4)
                let backwards = Tally<(Int, Int)>()
                let iterations = 300
                guard gatedThreads(threads: 4, iterations: iterations, seconds: 3, { thread, _ in
                    if pair[thread % 2] == "increment()" {
                        counter.value.increment()
                    } else {
                        let seen = counter.value.value
                        if seen < lastRead.value[thread] { backwards.append((lastRead.value[thread], seen)) }
                        lastRead.value[thread] = seen
                    }
                }) else { return childTimedOut("\(pair[0]) and \(pair[1]), each on 2 threads at the same moment, did not finish within 3 s; something they call blocks.") }
                if let (first, second) = backwards.all.first {
                    return "value went backwards while \(pair[0]) and \(pair[1]) ran at the same moment: one thread read \(first), then \(second)"
                }
                let incrementing = (0..<4).filter { pair[$0 % 2] == "increment()" }.count
                let total = counter.value.value
                if total != incrementing * iterations {
                    return "\(incrementing) threads × \(iterations) increment() calls (\(pair[0]) and \(pair[1]) at the same moment) gave value \(total); it must be \(incrementing * iterations)"
                }
                return nil
            }
        }
        judgeChild(result, "\(pair[0]) and \(pair[1]) at the same moment, each from 2 threads", ifItCrashed: Self.trapAdvice)
    }

    @Test("two counters at once keep their own counts")
    func twoCountersAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let first = HitCounter(), second = HitCounter()
                for _ in 0..<3 { first.increment() }
                for _ in 0..<2 { second.increment() }
                let shared = "Each HitCounter must keep its own count: a `static var` (or a global) is one count shared by every counter."
                if first.value != 3 || second.value != 2 {
                    return "two counters, one incremented 3 times and the other twice, read \(first.value) and \(second.value); they must read 3 and 2. \(shared)"
                }
                let counters = Unchecked((first, second))
                guard gatedThreads(threads: 4, iterations: 250, seconds: 3, { thread, _ in
                    if thread < 2 { counters.value.0.increment() } else { counters.value.1.increment() }
                }) else { return childTimedOut("two counters incremented from 2 threads each did not finish within 3 s; something increment() calls blocks.") }
                if first.value != 503 || second.value != 502 {
                    return "two counters, each incremented 500 more times by 2 threads of its own at the same moment, read \(first.value) and \(second.value); they must read 503 and 502. \(shared)"
                }
                return nil
            }
        }
        judgeChild(result, "two HitCounters used at the same time", ifItCrashed: Self.trapAdvice)
    }

    @Test("a counter may be released at any time: new, right after increment(), on another thread than its users")
    func releasedAnyTime() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 6, cutShort: cutShort) {
                // A counter that keeps a queue: the test holds that queue while another thread
                // increments and lets the counter go, so what increment() queued runs after the
                // counter is gone, every run (an answer without a queue is judged by the rest).
                if let problem = releasedWhileWorkWaits({ HitCounter() }, "increment()", { $0.increment() }) {
                    return problem
                }
                for _ in 0..<200 { _ = HitCounter() }
                // Released the moment increment() returns: whatever increment() left for later
                // must not need the counter any more.
                for _ in 0..<200 {
                    let counter = HitCounter()
                    counter.increment()
                }
                let counters = Unchecked((0..<8).map { _ in HitCounter() })
                guard gatedThreads(threads: 4, iterations: 50, seconds: 2, { thread, _ in
                    counters.value[2 * thread].increment()
                    counters.value[2 * thread + 1].increment()
                }) else { return childTimedOut("8 counters incremented from 4 threads did not finish within 2 s; something increment() calls blocks.") }
                let values = counters.value.map(\.value)
                if values != Array(repeating: 50, count: 8) {
                    return "8 counters, each incremented 50 times by one thread, read \(values); each must read 50"
                }
                return nil
            }
        }
        judgeChild(result, "releasing HitCounters right after making them, right after increment(), and after other threads used them", ifItCrashed: "A trap when a counter is released usually means work left for later (a `queue.async` block) reaches a counter that is already gone — an `unowned self` in it, say. What does the work your increment() leaves for later hold on to?")
    }
}

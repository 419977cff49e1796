import Chapter5BuggyCounter
import Testing
import WorkbookTestSupport

// Each test runs HitCounter in a child process (an exit test): a wrong answer that traps — a
// `queue.sync` onto the queue the code is already running on — then fails that test alone, and
// the rest of the chapter is still graded.

@Suite("5.1 HitCounter", .gradedUnderTSan)
struct Exercise5_1Tests {
    static let trapAdvice =
        "A trap here usually means `queue.sync` was called from code already running on that same serial queue — for instance `increment()` reading `value` inside its own `queue.sync` — which could never be served, so libdispatch stops the program (on Linux with a bare trap and no message). See the pitfall at the end of Exercise 5.1 in the lesson."

    @Test("a new counter is at zero, and each increment() is counted by the time it returns")
    func countsEachIncrementAtOnce() async {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) {
            runInChild {
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
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) {
            runInChild(seconds: 4) {
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
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) {
            runInChild(seconds: 4) {
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
}

import Chapter5BuggyCounter
import Testing
import WorkbookTestSupport

@Suite("5.1 HitCounter")
struct Exercise5_1Tests {
    @Test("four threads incrementing together lose no hit")
    func concurrentIncrementsAreExact() {
        let counter = Unchecked(HitCounter())
        runConcurrently(threads: 4, iterations: 1_000, "4 000 increment() calls") { _, _ in
            counter.value.increment()
        }
        #expect(counter.value.value == 4_000, "4 threads × 1 000 increment() calls gave value \(counter.value.value); it must be 4 000")
    }

    @Test("reading value while others increment is safe, and value never goes backwards")
    func readsDuringIncrements() {
        let counter = Unchecked(HitCounter())
        let backwards = Tally<(Int, Int)>()
        runConcurrently(threads: 4, iterations: 500, "reading and incrementing together") { thread, _ in
            if thread < 2 {
                counter.value.increment()
            } else {
                let first = counter.value.value
                let second = counter.value.value
                if second < first { backwards.append((first, second)) }
            }
        }
        #expect(backwards.count == 0, "value went backwards while other threads incremented")
        #expect(counter.value.value == 1_000)
    }

    @Test("a new counter starts at zero")
    func startsAtZero() {
        #expect(HitCounter().value == 0)
    }
}

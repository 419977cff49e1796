import Chapter1Latch
import Foundation
import Testing
import WorkbookTestSupport

@Suite("1.1 makeLatch(count:whenZero:) — a countdown block", .gradedUnderTSan)
struct Exercise1_1Tests {
    static let callAfterTheQueue =
        "libdispatch stops a program whose block, running on a serial queue, calls `sync` on that same queue (\"dispatch_sync called on queue already owned by current thread\"). Here `whenZero` calls the latch, so `whenZero` must run after your `queue.sync` (or lock) has returned: decide inside, act outside."

    @Test("whenZero runs exactly once when four threads make all the calls together")
    func exactlyOnceFromManyThreads() {
        let runs = Tally<Void>()
        guard let latch = bounded("makeLatch(count: 4 000)", {
            Unchecked(keepAlive(makeLatch(count: 4 * 1_000) { runs.append(()) }))
        }) else { return }

        runConcurrently(threads: 4, iterations: 1_000, "calling the latch 4 000 times") { _, _ in
            latch.value()
        }
        #expect(runs.count == 1, "whenZero ran \(runs.count) times after 4 000 calls on a latch of 4 000; it must run exactly once")
    }

    @Test("1 000 latches, each called by four threads at the same moment: every whenZero runs exactly once")
    func exactlyOnceWhenTheLastCallsCollide() {
        let rounds = 1_000
        let fired = Tally<Int>()
        // Counts 1 to 4 for four callers: the call that reaches zero, and up to three calls after it,
        // arrive at the same moment.
        guard let latches = bounded("making 1 000 latches", {
            Unchecked(keepAlive((0..<rounds).map { round in makeLatch(count: 1 + round % 4) { fired.append(round) } }))
        }) else { return }

        guard runInRounds(rounds: rounds, "four threads calling 1 000 latches, one round per latch", seconds: 3, { _, round in
            latches.value[round]()
        }) else { return }
        var runs = [Int](repeating: 0, count: rounds)
        for round in fired.all { runs[round] += 1 }
        let off = runs.indices.filter { runs[$0] != 1 }
        if let first = off.first {
            Issue.record("""
                In \(off.count) of 1 000 rounds whenZero did not run exactly once — e.g. a latch of count \(1 + first % 4) \
                called once by each of four threads at the same moment ran it \(runs[first]) times. Between the \
                moment a call lowered the count and the moment it asked "is it zero now?", another call got \
                in. Read "Decide inside the queue, act outside it" in the lesson.
                """)
        }
    }

    @Test("whenZero waits for the last call, and later calls do nothing")
    func runsAfterTheLastCallOnly() {
        let runs = Tally<Void>()
        guard let latch = bounded("makeLatch(count: 3)", { Unchecked(keepAlive(makeLatch(count: 3) { runs.append(()) })) })
        else { return }

        guard returns("the 1st and 2nd of 3 calls", { latch.value(); latch.value() }) else { return }
        #expect(runs.count == 0, "whenZero ran after 2 of 3 calls")
        guard returns("the 3rd of 3 calls", { latch.value() }) else { return }
        #expect(runs.count == 1, "whenZero did not run on the 3rd of 3 calls")
        guard returns("calls after the count reached zero", { latch.value(); latch.value() }) else { return }
        #expect(runs.count == 1, "calls after zero ran whenZero again (\(runs.count) runs in all); they must do nothing")
    }

    @Test("whenZero runs on the thread that makes the last call, before that call returns")
    func runsOnTheLastCaller() {
        let ranOn = Tally<UInt>()
        guard let latch = bounded("makeLatch(count: 2)", {
            Unchecked(keepAlive(makeLatch(count: 2) { ranOn.append(currentThreadID()) }))
        }) else { return }
        guard returns("the 1st of 2 calls", { latch.value() }) else { return }
        guard case let (caller, seen)? = bounded("the 2nd of 2 calls", { () -> (UInt, [UInt]) in
            let caller = currentThreadID()
            latch.value()
            return (caller, ranOn.all)
        }) else { return }
        if seen.isEmpty {
            Issue.record("when the 2nd call of a latch of 2 returned, whenZero had not run yet. Run it right there, in the call that reached zero (not later, not on another queue).")
        } else if seen != [caller] {
            Issue.record("whenZero ran on another thread than the one that made the last call. Call it directly, after `sync` returns — don't hand it to a queue.")
        }
    }

    @Test("a latch of zero runs whenZero at once, on the caller's thread, and its block does nothing")
    func zeroCountRunsAtOnce() {
        let ranOn = Tally<UInt>()
        guard case let (caller, seen, latch)? = bounded("makeLatch(count: 0)", { () -> (UInt, [UInt], Unchecked<() -> Void>) in
            let caller = currentThreadID()
            let latch = keepAlive(makeLatch(count: 0) { ranOn.append(currentThreadID()) })
            return (caller, ranOn.all, Unchecked(latch))
        }) else { return }
        if seen.isEmpty {
            Issue.record("makeLatch(count: 0) returned before whenZero ran; it must run whenZero before it returns\(ranOn.count > 0 ? " (it ran later, elsewhere)" : "")")
            return
        }
        #expect(seen == [caller], "makeLatch(count: 0) must run whenZero once, on the caller's thread; it ran \(seen.count) times\(seen.contains(caller) ? "" : ", on another thread")")
        guard returns("calling the block of a latch of zero", { latch.value(); latch.value() }) else { return }
        #expect(ranOn.count == 1, "calling the block of a latch of zero ran whenZero again (\(ranOn.count) runs in all); the count is already zero, so calls do nothing")
    }

    @Test("whenZero may call its own latch: that call does nothing, and nothing traps or hangs")
    func whenZeroMayCallTheLatch() async {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) {
            runInChild {
                let slot = Slot<Unchecked<() -> Void>>()
                let runs = Tally<Void>()
                let latch = keepAlive(makeLatch(count: 2) {
                    runs.append(())
                    // Call the latch from inside whenZero (only the first time, so that a latch that
                    // runs whenZero again cannot recurse forever).
                    if runs.count == 1 { slot.value?.value() }
                })
                slot.value = Unchecked(latch)
                latch()
                latch()
                if runs.count != 1 {
                    return "a whenZero that calls its latch once more ran \(runs.count) times; it must run exactly once (the call from inside it comes after zero and does nothing)"
                }
                return nil
            }
        }
        judgeChild(result, "A whenZero that calls its own latch", ifItCrashed: Self.callAfterTheQueue)
    }

    @Test("while whenZero runs, another thread can call the latch and return")
    func otherThreadsMayCallDuringWhenZero() {
        let slot = Slot<Unchecked<() -> Void>>()
        let otherReturned = Tally<Bool>()
        let runs = Tally<Void>()
        guard let latch = bounded("makeLatch(count: 1)", {
            Unchecked(keepAlive(makeLatch(count: 1) {
                runs.append(())
                guard runs.count == 1 else { return }
                // whenZero waits (up to 1 s) for another thread's call to the latch to return.
                let done = Signal()
                startThread { slot.value?.value(); done.fire() }
                otherReturned.append(done.happens(within: 1))
            }))
        }) else { return }
        slot.value = latch
        guard returns("the call that reaches zero (its whenZero waits up to 1 s for another thread's call)", seconds: 4, {
            latch.value()
        }) else { return }
        if otherReturned.all == [false] {
            recordTimeout("while whenZero was running, another thread called the latch, and that call did not return within 1 s — it waited for whenZero to finish, because the latch still held its queue (or lock). Run whenZero after your critical section has ended.")
        }
        #expect(runs.count == 1, "whenZero ran \(runs.count) times on a latch of 1 called twice; it must run exactly once")
    }
}

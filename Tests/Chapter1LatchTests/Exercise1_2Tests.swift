import Chapter1Latch
import Foundation
import Testing
import WorkbookTestSupport

@Suite("1.2 makeLatch(count:whenZero:) with a Bool — the animation latch", .gradedUnderTSan)
struct Exercise1_2Tests {
    static let callAfterTheQueue =
        "libdispatch stops a program whose block, running on a serial queue, calls `sync` on that same queue (\"dispatch_sync called on queue already owned by current thread\"). Here `whenZero` calls the latch: where does `whenZero` run — inside your `queue.sync` (or lock), or after it has returned?"

    /// Makes a latch (bounded, kept alive) whose `whenZero` appends what it got to `results`.
    static func latch(count: Int, _ results: Tally<Bool>, sourceLocation: SourceLocation = #_sourceLocation)
        -> Unchecked<(Bool) -> Void>?
    {
        bounded("makeLatch(count: \(count))", sourceLocation: sourceLocation) {
            Unchecked(keepAlive(makeLatch(count: count) { (allFinished: Bool) in results.append(allFinished) }))
        }
    }

    @Test("whenZero(false) when any animation did not finish, even if the last one did")
    func falseIfAnyCallFailed() {
        let results = Tally<Bool>()
        guard let latch = Self.latch(count: 3, results) else { return }

        guard returns("the 1st of 3 calls, passing false", { latch.value(false) }) else { return }
        verify(results.all.isEmpty, "whenZero ran after 1 of 3 calls (it got \(results.all)); even when an animation was interrupted, it must wait for all 3 calls")
        guard returns("the 2nd and 3rd of 3 calls, passing true", { latch.value(true); latch.value(true) }) else { return }
        verify(results.all == [false], "calls passed false, true, true; whenZero got \(results.all) — it must get [false]: not every animation finished")
    }

    @Test("whenZero(true) when every animation finished")
    func trueWhenAllFinished() {
        let results = Tally<Bool>()
        guard let latch = Self.latch(count: 3, results) else { return }

        guard returns("the 1st and 2nd of 3 calls", { latch.value(true); latch.value(true) }) else { return }
        verify(results.all.isEmpty, "whenZero ran after 2 of 3 calls")
        guard returns("the 3rd of 3 calls", { latch.value(true) }) else { return }
        verify(results.all == [true], "three calls passed true; whenZero got \(results.all)")
    }

    @Test("calls after zero do nothing: whenZero does not run again, and their Bool is ignored")
    func callsAfterZeroDoNothing() {
        let results = Tally<Bool>()
        guard let latch = Self.latch(count: 2, results) else { return }

        guard returns("two calls passing true", { latch.value(true); latch.value(true) }) else { return }
        guard returns("calls after the count reached zero", { latch.value(false); latch.value(true) }) else { return }
        verify(results.all == [true], "a latch of 2 got true, true, then false, true after zero; whenZero got \(results.all) — it must run once, with true, and ignore calls after zero")
    }

    @Test("one failure among 4 000 calls from four threads is not lost")
    func oneFailureAmongManyThreads() {
        let results = Tally<Bool>()
        guard let latch = Self.latch(count: 4 * 1_000, results) else { return }

        runConcurrently(threads: 4, iterations: 1_000, "calling the animation latch 4 000 times") { thread, iteration in
            latch.value(!(thread == 2 && iteration == 10))
        }
        verify(results.all == [false], "one of 4 000 calls passed false; whenZero got \(results.all)")
    }

    @Test("four threads each passing false on every other call: whenZero(false), exactly once")
    func manyFailuresFromManyThreads() {
        let results = Tally<Bool>()
        guard let latch = Self.latch(count: 4 * 1_000, results) else { return }

        runConcurrently(threads: 4, iterations: 1_000, "calling the animation latch 4 000 times") { _, iteration in
            latch.value(iteration % 2 == 0)
        }
        verify(results.all == [false], "half of 4 000 calls, from four threads, passed false; whenZero got \(results.all)")
    }

    @Test("latches called by two threads, then by four, at the same moment: every whenZero gets the right Bool, once", .runsAlone)
    func rightAnswerWhenTheLastCallsCollide() {
        // As 1.1's collision test: the two calls that decide the answer must meet on the answer's
        // own queue, in two kinds of rounds (`CollisionPhase`); the second only if the first
        // showed nothing.
        playCollisionPhases(collide)
    }

    /// Plays one kind of rounds: a latch of `threads` per round, called once by every thread at the
    /// same moment. In even rounds one thread (a different one each time) passes false; odd rounds
    /// are all true. Returns whether a wrong answer was shown (and recorded), or `nil` after a
    /// recorded time-out.
    private func collide(_ phase: CollisionPhase) -> Bool? {
        let rounds = phase.rounds(fours: 1_000), threads = phase.threads
        let got = Tally<(round: Int, allFinished: Bool)>()
        let what = phase.what(rounds: rounds, "latches of \(threads)")
        guard let latches = bounded("making the latches of \(what)", {
            Unchecked(keepAlive((0..<rounds).map { round in
                makeLatch(count: threads) { (allFinished: Bool) in got.append((round, allFinished)) }
            }))
        }) else { return nil }

        // Every round's whenZero runs once, before the call that reached zero returns. A count of
        // answers that shows otherwise stops the rounds there; the answers are read after.
        guard let played = runInRounds(threads: threads, rounds: rounds, what, seconds: 10, spinning: phase.spinning,
                                       meetings: phase.meetings, stopEarly: { done in phase.wrongCount(got.count, done) }, { thread, round in
            latches.value[round](!(round % 2 == 0 && thread == (round / 2) % threads))
        }) else { return nil }
        var answers = [[Bool]](repeating: [], count: played)
        for (round, allFinished) in got.all where round < played { answers[round].append(allFinished) }
        let off = answers.indices.filter { answers[$0] != [$0 % 2 != 0] }
        guard let first = off.first else { return false }
        let passed = first % 2 == 0 ? "where one thread passed false" : "where all \(threads) passed true"
        let wrong = answers[first].count == 1
            ? "whenZero got \(answers[first][0]) instead of \(first % 2 != 0)"
            : "whenZero ran \(answers[first].count) times (it got \(answers[first])) instead of once"
        recordIssue("""
            In \(off.count) of \(played) rounds — each a new latch of \(threads) that \(threads) threads called at the same moment — \
            \(wrong) (e.g. in a round \(passed)). Record each call's Bool, lower the count and decide "this call \
            reached zero" all in one critical section.
            """)
        return true
    }

    @Test("whenZero runs on the thread that makes the last call, before that call returns")
    func runsOnTheLastCaller() {
        let ranOn = Tally<UInt>()
        guard let latch = bounded("makeLatch(count: 2)", {
            Unchecked(keepAlive(makeLatch(count: 2) { (_: Bool) in ranOn.append(currentThreadID()) }))
        }) else { return }
        expectWhenZeroOnTheLastCaller(ranOn) { latch.value(true) }
    }

    @Test("a latch of zero reports true at once, on the caller's thread, and its block does nothing")
    func zeroCountReportsTrue() {
        let results = Tally<Bool>(), ranOn = Tally<UInt>()
        guard case let (caller, seen, latch)? = bounded("makeLatch(count: 0)", { () -> (UInt, [Bool], Unchecked<(Bool) -> Void>) in
            let caller = currentThreadID()
            let latch = keepAlive(makeLatch(count: 0) { (allFinished: Bool) in
                ranOn.append(currentThreadID())
                results.append(allFinished)
            })
            return (caller, results.all, Unchecked(latch))
        }) else { return }
        if seen.isEmpty {
            recordIssue("makeLatch(count: 0) returned before whenZero ran; it must call whenZero(true) before it returns\(results.count > 0 ? " (it ran later, elsewhere)" : "")")
            return
        }
        verify(seen == [true], "makeLatch(count: 0) should call whenZero(true) once before it returns; it got \(seen)")
        verify(ranOn.all == [caller], "makeLatch(count: 0) must call whenZero on the caller's thread")
        guard returns("calling the block of a latch of zero", { latch.value(false); latch.value(true) }) else { return }
        verify(results.all == [true], "calling the block of a latch of zero ran whenZero again (it got \(results.all) in all); the count is already zero, so calls do nothing")
    }

    @Test("whenZero may call its own latch: that call does nothing, and nothing traps or hangs")
    func whenZeroMayCallTheLatch() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(cutShort: cutShort) {
                let slot = Slot<Unchecked<(Bool) -> Void>>()
                let results = Tally<Bool>()
                let latch = keepAlive(makeLatch(count: 2) { (allFinished: Bool) in
                    results.append(allFinished)
                    // Call the latch from inside whenZero, once (so that a latch that runs whenZero
                    // again cannot recurse forever).
                    if results.count == 1 { slot.value?.value(false) }
                })
                slot.value = Unchecked(latch)
                latch(true)
                latch(true)
                if results.all != [true] {
                    return "a latch of 2 got true, true, and its whenZero then called the latch with false; whenZero got \(results.all) — it must run once, with true (the call from inside it comes after zero and does nothing)"
                }
                return nil
            }
        }
        judgeChild(result, "A whenZero that calls its own latch", ifItCrashed: Self.callAfterTheQueue)
    }

    @Test("while whenZero runs, another thread can call the latch and return")
    func otherThreadsMayCallDuringWhenZero() {
        let slot = Slot<Unchecked<(Bool) -> Void>>()
        let otherReturned = Tally<Bool>()
        let results = Tally<Bool>()
        guard let latch = bounded("makeLatch(count: 1)", {
            Unchecked(keepAlive(makeLatch(count: 1) { (allFinished: Bool) in
                results.append(allFinished)
                guard results.count == 1 else { return }
                // whenZero waits (up to 1 s) for another thread's call to the latch to return.
                let done = Signal()
                startThread { slot.value?.value(false); done.fire() }
                otherReturned.append(done.happens(within: 1))
            }))
        }) else { return }
        slot.value = latch
        guard returns("the call that reaches zero (its whenZero waits up to 1 s for another thread's call)", seconds: 4, {
            latch.value(true)
        }) else { return }
        if otherReturned.all == [false] {
            recordTimeout("while whenZero was running, another thread called the latch, and that call did not return within 1 s — it waited for whenZero to finish, because the latch still held its queue (or lock). Run whenZero after your critical section has ended.")
        }
        verify(results.all == [true], "a latch of 1 called with true, then with false after zero: whenZero got \(results.all); it must run once, with true")
    }
}

// MARK: - Dimensions (issue 15)
//
// What every caller wrote before its call, seen inside whenZero; two latches at once; a latch let
// go in every state. Which test covers which dimension is declared in
// Exercises/Chapter1Latch/chapter.json.
// Every clause but visibility, in generated scenarios (counts 0 to 40, callers everywhere, the main
// queue too, calls past zero, a whenZero that uses the block while others call): explored
// (Exercise1_2Tests+Explored.swift).
extension Exercise1_2Tests {
    @Test("what each of four threads wrote before its calls is visible inside whenZero")
    func whenZeroSeesWhatEveryCallerWrote() {
        let results = Tally<Bool>()
        expectWhenZeroSeesWhatEveryCallerWrote(
            make: { count, whenZero in
                makeLatch(count: count) { (allFinished: Bool) in
                    whenZero()
                    results.append(allFinished)
                }
            },
            call: { latch in latch(true) },
            alsoVerify: { verify(results.all == [true], "800 calls all passed true; whenZero got \(results.all)") })
    }

    @Test("two latches at once, one called from the other's whenZero: each keeps its own count and its own answer")
    func twoLatchesKeepTheirOwnAnswers() {
        let firstResults = Tally<Bool>(), secondResults = Tally<Bool>()
        let slot = Slot<Unchecked<(Bool) -> Void>>()
        guard let latches = bounded("makeLatch(count: 3), then makeLatch(count: 2)", { () -> Unchecked<((Bool) -> Void, (Bool) -> Void)> in
            let second = keepAlive(makeLatch(count: 3) { (allFinished: Bool) in secondResults.append(allFinished) })
            slot.value = Unchecked(second)
            let first = keepAlive(makeLatch(count: 2) { (allFinished: Bool) in
                firstResults.append(allFinished)
                slot.value?.value(true)
            })
            return Unchecked((first, second))
        }) else { return }
        guard returns("two calls to the latch of 2, passing false then true (its whenZero calls the latch of 3 with true)", {
            latches.value.0(false); latches.value.0(true)
        }) else { return }
        verify(firstResults.all == [false], "a latch of 2 got false, true; whenZero got \(firstResults.all) — it must get [false]")
        verify(secondResults.all.isEmpty, "a latch of 3 called once (from another latch's whenZero) ran its whenZero; it needs 3 calls")
        guard returns("the 2nd and 3rd calls to the latch of 3, passing true", { latches.value.1(true); latches.value.1(true) }) else { return }
        verify(secondResults.all == [true], "a latch of 3 got true three times (once from another latch's whenZero, while that latch had got a false); its whenZero got \(secondResults.all) — it must get [true]: each latch keeps its own count and its own answer (no `static` or global state)")
    }

    @Test("a latch let go before zero, at zero, or from inside its own whenZero: nothing traps, and only the latches that reached zero ran whenZero")
    func releasedInEveryState() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                latchesLetGoInEveryState(make: { count, whenZero in makeLatch(count: count) { (_: Bool) in whenZero() } }, call: { latch, reachesZero in latch(reachesZero) })
            }
        }
        judgeChild(result, "Letting go of latches", ifItCrashed: "letting go of a latch stopped the program. libdispatch traps when a semaphore is released with its value below the value it was created with: a semaphore used as a lock must be given back on every path.")
    }
}

extension Exercise1_2Tests {
    @Test("200 latches of 4, each called with false by four threads at the same moment: whenZero(false), once each")
    func failuresCollide() {
        let rounds = 200
        let got = Tally<(round: Int, allFinished: Bool)>()
        guard let latches = bounded("making 200 latches", {
            Unchecked(keepAlive((0..<rounds).map { round in
                makeLatch(count: 4) { (allFinished: Bool) in got.append((round, allFinished)) }
            }))
        }) else { return }
        // Released by a spinning barrier, the four `false` calls of a round meet within a fraction
        // of a microsecond: whatever a call writes before it enters the queue (or lock), the others
        // write at the same moment.
        if let problem = spinningRoundsProblem(rounds: rounds, "four threads passing false to 200 latches, one round per latch", { _, round in
            latches.value[round](false)
        }) {
            recordTimeout(problem)
            return
        }
        var answers = [[Bool]](repeating: [], count: rounds)
        for (round, allFinished) in got.all { answers[round].append(allFinished) }
        let off = answers.indices.filter { answers[$0] != [false] }
        if let first = off.first {
            recordIssue("In \(off.count) of 200 rounds — each a new latch of 4 that four threads called with false at the same moment — whenZero got \(answers[first]) instead of [false]. Between one call's Bool, its lowering of the count and its \"this call reached zero\", what can another call do?")
        }
    }
}

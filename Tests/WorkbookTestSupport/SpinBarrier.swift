import Dispatch
import Foundation
import Synchronization

/// A barrier for a few threads that busy-waits, so that they leave it within a fraction of a
/// microsecond of each other — round after round.
///
/// A check made apart from the change it guards (check-then-act) goes wrong only when two calls
/// really meet in the gap between the two. A semaphore between rounds is far too slow for that: the
/// threads it releases wake tens of microseconds apart, long after a short critical section is
/// over, and some runs then show no collision at all. Spinning threads leave together. Each spin
/// yields the processor, and a long wait sleeps between looks, so that more threads than free
/// cores still all arrive.
///
/// It gives up waiting (for good) after a second, or once ``stop()`` is called, so that a thread stuck
/// in learner code cannot make the others spin for ever; the caller's own bound then reports it.
package final class SpinBarrier: Sendable {
    private let parties: Int
    private let arrivals = Atomic<Int>(0)
    private let awake = Atomic<Int>(0)
    private let gaveUp = Atomic<Bool>(false)
    private let halted = Atomic<Bool>(false)

    /// A barrier for `parties` threads.
    package init(parties: Int) {
        self.parties = parties
    }

    /// Waits until all the parties have arrived for `round` (counted from 0; every thread must
    /// arrive for every round, in order).
    ///
    /// Two meetings. At the first, a party may wait long and sleep between looks, and then it wakes
    /// tens of microseconds after the last one arrived and left. So all meet a second time, each
    /// spinning without a pause for a short while: every party has just been running, and the last
    /// to arrive finds the others spinning and leaving with it.
    package func arriveAndWait(round: Int) {
        let target = parties * (round + 1)
        meet(arrivals, target: target, hardSpin: nil)
        meet(awake, target: target, hardSpin: .microseconds(200))
    }

    /// Counts this party in `count` and waits until it reaches `target`: at first spinning without
    /// a pause for up to `hardSpin`, then yielding the processor, then sleeping 20 µs between looks.
    private func meet(_ count: borrowing Atomic<Int>, target: Int, hardSpin: DispatchTimeInterval?) {
        count.add(1, ordering: .sequentiallyConsistent)
        let start = DispatchTime.now()
        let hardUntil = start + (hardSpin ?? .never)
        let deadline = start + 1
        var spins = 0, hard = hardSpin != nil
        while count.load(ordering: .sequentiallyConsistent) < target, !gaveUp.load(ordering: .relaxed) {
            spins += 1
            if hard {
                if spins % 64 == 0, DispatchTime.now() > hardUntil { hard = false; spins = 0 }
                continue
            }
            if spins % 1_024 == 0 && DispatchTime.now() > deadline {
                gaveUp.store(true, ordering: .relaxed)
            }
            // On a busy machine (fewer free cores than parties), sleep a little between looks so
            // that the parties still to arrive get a processor.
            if spins < 2_048 { sched_yield() } else { usleep(20) }
        }
    }

    /// Asks the threads to skip the rounds that are left (see ``stopped``), and to stop waiting.
    package func stop() {
        halted.store(true, ordering: .relaxed)
        gaveUp.store(true, ordering: .relaxed)
    }

    /// Whether ``stop()`` was called.
    package var stopped: Bool { halted.load(ordering: .relaxed) }
}

/// When a thread passed a point, written by that thread and read by another without ordering the
/// two (a relaxed atomic): to tell afterwards whether two threads let go together really left
/// together, or one of them waited for a processor.
package final class TimeMark: Sendable {
    private let uptime = Atomic<UInt64>(0)

    package init() {}

    /// Records the present moment.
    package func mark() { uptime.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }

    /// Nanoseconds from `other`'s moment to this one (negative when this one came first).
    package func nanoseconds(from other: TimeMark) -> Int {
        Int(truncatingIfNeeded: uptime.load(ordering: .relaxed) &- other.uptime.load(ordering: .relaxed))
    }

    /// Whether every mark is within a microsecond of the first: threads that began a round that
    /// close together really met in it (Exercises/MEASUREMENTS.md, M20).
    package static func together(_ marks: [TimeMark]) -> Bool {
        marks.allSatisfy { $0.nanoseconds(from: marks[0]).magnitude < 1_000 }
    }
}

/// Lets one test thread wait until another has done its part without ordering the two for the
/// Thread Sanitizer: a relaxed atomic flag, watched with a deadline. A semaphore or a lock would
/// order everything before the hand-off before everything after it, and TSan would then have
/// nothing to report; relaxed atomics give it no happens-before edge (measured on Linux x86-64,
/// Swift 6.3.1).
package final class UnorderedHandOff: Sendable {
    private let done = Atomic<Bool>(false)

    package init() {}

    /// Says that this thread's part is done.
    package func mark() { done.store(true, ordering: .relaxed) }

    /// Waits until ``mark()`` was called, at most `seconds`; `false` when the time ran out.
    @discardableResult
    package func wait(seconds: Double) -> Bool {
        spinWait(seconds: seconds) { done.load(ordering: .relaxed) }
    }
}

/// Waits until `condition` holds, at most `seconds`, looking again and again with no lock or
/// semaphore, so that the wait orders nothing for the Thread Sanitizer (the condition reads a
/// relaxed atomic). It spins a little, yielding the processor, then sleeps 20 µs between looks:
/// threads that only yield keep a busy 2-core machine's other threads from running (two near
/// misses whose tests passed turns by yielding alone ran out of their bounds while four test
/// processes ran: Exercises/MEASUREMENTS.md, M18). `false` if the time ran out.
package func spinWait(seconds: Double, until condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now() + seconds
    var looks = 0
    while !condition() {
        looks += 1
        if looks % 256 == 0, DispatchTime.now() > deadline { return false }
        if looks < 2_048 { sched_yield() } else { usleep(20) }
    }
    return true
}

import Dispatch
import Foundation
import Synchronization
import Testing
import WorkbookTestSupport

/// Lets two threads take turns without telling the Thread Sanitizer.
///
/// Whose turn it is lives in a *relaxed* atomic, which orders nothing for the sanitizer. Code run
/// in turns never overlaps in time, so a racy starter cannot corrupt memory (a `Dictionary`
/// written while another thread reads it can crash the process before any report is written);
/// yet the sanitizer still sees two unordered accesses and reports them — unless the learner's own
/// synchronization, a queue, orders them. (Chapter-specific; WorkbookTestSupport has no such tool.)
@available(macOS 15.0, *)
final class Turns: Sendable {
    private let turn = Atomic<Int>(0)

    init() {}

    /// Waits until it is turn `number`; `false` if it did not come within `seconds`.
    func wait(for number: Int, seconds: Double = 2) -> Bool {
        spinWait(seconds: seconds) { turn.load(ordering: .relaxed) == number }
    }

    /// Hands the turn on: the thread waiting for `number` may go.
    func pass(to number: Int) {
        turn.store(number, ordering: .relaxed)
    }
}

@available(macOS 15.0, *)
extension Turns {
    /// Thread `thread`'s turn in `round` when two threads take turns (turn 2 × round + thread): waits
    /// for it, runs `body` with its number, and hands the turn on. Returns `nil`, or the turn that did
    /// not come within 2 s — `body` then did not run.
    func take(_ thread: Int, inRound round: Int, _ body: (_ turn: Int) -> Void) -> Int? {
        let turn = 2 * round + thread
        guard wait(for: turn) else { return turn }
        body(turn)
        pass(to: turn + 1)
        return nil
    }
}

@available(macOS 15.0, *)
extension Turns {
    /// For a child: two threads of the test, started at the same moment, taking turns for `rounds`
    /// rounds — thread 0, then thread 1 (``take(_:inRound:_:)``); on each turn `body(thread, round,
    /// turn)` returns a problem or `nil`, and a turn that never came is the problem `missed(turn)`.
    /// The threads run as ``gatedThreads(threads:iterations:seconds:_:)`` runs them, for at most
    /// `seconds`; when they do not finish, the sentence is a timeout naming them as `who`. Returns
    /// `nil` when no turn found a problem; else the first problem when it is a timeout
    /// (``childTimedOut(_:)``), or what `problems` says of them all (by default the first).
    static func take(
        rounds: Int, gated who: String, seconds: Double = 3,
        missed: @escaping @Sendable (_ turn: Int) -> String = { childTimedOut("turn \($0) never came") },
        problems: ([String]) -> String = { $0[0] },
        _ body: @escaping @Sendable (_ thread: Int, _ round: Int, _ turn: Int) -> String?
    ) -> String? {
        let turns = Turns()
        let found = Tally<String>()
        let finished = gatedThreads(threads: 2, iterations: rounds, seconds: seconds) { thread, round in
            let late = turns.take(thread, inRound: round) { turn in
                if let problem = body(thread, round, turn) { found.append(problem) }
            }
            if let late { found.append(missed(late)) }
        }
        guard finished else { return childTimedOut("\(who) did not finish within \(formatSeconds(seconds))") }
        let all = found.all
        guard let first = all.first else { return nil }
        return isChildTimeout(first) ? first : problems(all)
    }
}

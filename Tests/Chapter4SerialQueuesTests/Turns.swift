import Dispatch
import Foundation
import Synchronization
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

import Dispatch
import Testing

// Bounded waits until a test's queue has run what was sent to it (chapters 2 and 5 check where
// completion ran only once it has). Used instead of `queue.sync {}`, which would hang the whole
// run when learner code blocks the queue (a `wait()` inside a block running on it).

extension TestQueue {
    /// Whether ``queue`` ran, within `seconds`, every block sent to it so far — and, for `rounds`
    /// above 1, the blocks those sent to it in turn, `rounds` deep (a notify block submitted when
    /// the last of them left a group). Records nothing: for exit-test children.
    package func caughtUp(rounds: Int = 1, within seconds: Double) -> Bool {
        reached(rounds).happens(within: seconds)
    }

    /// ``caughtUp(rounds:within:)``, recording a hang-kind failure when the queue did not catch up:
    /// `stillBusy` says so, given how long was waited ("2 s").
    package func caughtUp(
        rounds: Int = 1, seconds: Double, sourceLocation: SourceLocation,
        _ stillBusy: (_ waited: String) -> String
    ) -> Bool {
        reached(rounds).wait(stillBusy(formatSeconds(seconds)), seconds: seconds, sourceLocation: sourceLocation)
    }

    /// Fired by the last of `rounds` blocks on ``queue``, each sent there by the one before.
    private func reached(_ rounds: Int) -> Signal {
        let reached = Signal()
        Self.send(queue, rounds, then: reached)
        return reached
    }

    private static func send(_ queue: DispatchQueue, _ rounds: Int, then reached: Signal) {
        queue.async { rounds > 1 ? send(queue, rounds - 1, then: reached) : reached.fire() }
    }
}

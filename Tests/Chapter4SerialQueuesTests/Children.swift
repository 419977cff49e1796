import Dispatch
import Foundation
import Testing
import WorkbookTestSupport

// Every test of this chapter calls the learner's code inside an exit test's child process
// (`runInChild`): a wrong answer here easily `sync`s onto the queue it is already running on, and
// libdispatch then traps — on Linux with no message — which would end the whole test run. In a
// child, the trap fails one test ("Crashed:"), a hang fails it as "Timed out:", a race reported in the
// child fails it as "Data race:" under plain `swift test` (`workbook check` reads the
// report itself), and every other test still runs. (Chapter-specific helpers; WorkbookTestSupport has the rest.)

/// The `DispatchQueue` stored in `object`'s property called `queue`, if it has one.
///
/// The exercises hand their types a queue (`let queue` / `private let queue`); a few contract clauses
/// are about that queue — "a read made while another block runs on `queue` waits for it", "reads run
/// side by side on `queue`" — and only a block the test itself puts on the queue can observe them.
/// Read it before any other thread touches the object.
func queueProperty(of object: AnyObject) -> DispatchQueue? {
    Mirror(reflecting: object).children.first { $0.label == "queue" }?.value as? DispatchQueue
}

/// Occupies `queue` from a thread of the test: a plain `queue.sync` block that stays until
/// `release` fires (at most `seconds`). Returns `false` if the block did not start within 2 s.
func occupy(_ queue: DispatchQueue, until release: Signal, seconds: Double = 3) -> Bool {
    let holding = Signal()
    startThread {
        queue.sync {
            holding.fire()
            _ = release.happens(within: seconds)
        }
    }
    return holding.happens(within: 2)
}

/// `true` when the two threads are the same.
func sameThread(_ a: pthread_t, _ b: pthread_t) -> Bool { pthread_equal(a, b) != 0 }

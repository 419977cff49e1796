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


/// What a trap means when a block on a serial queue `sync`s onto that queue: the start of 4.1's,
/// 4.2's and 4.4's `syncInsideSync`, each of which goes on with where to look in its exercise.
let syncOntoItsOwnQueue =
    "libdispatch stops a program whose block, running on a serial queue, calls `sync` on that same queue — it would wait for itself forever (the crash report on Apple platforms says \"dispatch_sync called on queue already owned by current thread\"; on Linux the process just traps, with no message). "

/// `true` when the two threads are the same.
func sameThread(_ a: pthread_t, _ b: pthread_t) -> Bool { pthread_equal(a, b) != 0 }

/// Two writer threads and two reader threads behind a start gate, 1 000 rounds each: writer `t`
/// stores `"t<t>-<round>"` through `write` (which may also clear), readers check that every token
/// `read` returns is one somebody stored (or `initial`). Returns `nil` when every read was one of
/// those and the last write won, else the sentence for ``judgeChild`` (a timeout said as one).
func writersAndReaders(
    initial: String?,
    write: @escaping @Sendable (_ thread: Int, _ round: Int) -> Void,
    read: @escaping @Sendable () -> String?
) -> String? {
    let strange = Tally<String>()
    guard gatedThreads(threads: 4, iterations: 1_000, seconds: 3, { thread, round in
        if thread < 2 {
            write(thread, round)
        } else if let seen = read(), seen != initial, !seen.hasPrefix("t0-"), !seen.hasPrefix("t1-") {
            strange.append(seen)
        }
    }) else { return childTimedOut("the four threads did not finish within 3 s: something in token blocks") }
    if !strange.all.isEmpty { return "readers saw tokens nobody stored: \(strange.all.prefix(3))" }
    let last = read()
    guard last == "t0-999" || last == "t1-999" else {
        return "after both writers finished, token is \(last.map { "\"\($0)\"" } ?? "nil"); it must be the last value one of them stored (t0-999 or t1-999)"
    }
    return nil
}

/// A writer and a reader taking turns, 200 rounds: in round i the writer stores `value(i)` through
/// `write`, then the reader must get it back from `read`. Only the type's own synchronization can
/// order a read after the write before it (``Turns`` tells the sanitizer nothing), so an access made
/// without it is reported, every run. Returns `nil`, or the sentence for ``judgeChild`` (a timeout
/// said as one).
func writerAndReaderTakingTurns(
    value: @escaping @Sendable (_ round: Int) -> String?,
    write: @escaping @Sendable (String?) -> Void,
    read: @escaping @Sendable () -> String?
) -> String? {
    Turns.take(rounds: 200, gated: "the writer and the reader", problems: { "the reader did not see the write just before it: \($0.prefix(3))" }) { thread, round, _ in
        if thread == 0 {
            write(value(round))
            return nil
        }
        let seen = read(), expected = value(round)
        return seen == expected ? nil : "read \(quoted(seen)) right after token = \(quoted(expected))"
    }
}

/// A value as a sentence shows it: in quotes, or nil.
func quoted(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "nil" }

/// The two-instances dimension from four gated threads, 200 rounds: threads 0 and 1 store
/// "one-<round>" into the first of two objects and "two-<round>" into the second (`write(object,
/// token)`, `object` 0 or 1), while threads 2 and 3 read them back (`read(object)`); a reader must
/// never see the other object's tokens. `kind` names the objects ("store"), `other` the other one
/// as a problem says it ("the other store"). Returns `nil`, or the sentence for ``judgeChild``.
func twoReadAndSetAtOnce(
    _ kind: String, other: String,
    write: @escaping @Sendable (_ object: Int, _ token: String) -> Void,
    read: @escaping @Sendable (_ object: Int) -> String?
) -> String? {
    let problems = Tally<String>()
    guard gatedThreads(threads: 4, iterations: 200, seconds: 3, { thread, round in
        let object = thread % 2, name = ["one", "two"][object]
        if thread < 2 {
            write(object, "\(name)-\(round)")
        } else if let seen = read(object), !seen.hasPrefix(name) {
            problems.append("\(kind) \(name) read \"\(seen)\", a token set on \(other)")
        }
    }) else { return childTimedOut("two \(kind)s used by four threads did not finish within 3 s") }
    return problems.all.first
}

/// For a child: a block of the test — a plain one, or a barrier — holds `object`'s queue
/// (``queueProperty(of:)``) while `body` runs, until `body` fires the `release` it is handed (or
/// returns). `block` names that block as a failure says it: "a block the test put on the store's
/// queue". Returns `ifNoQueue` when the object has no queue to hold (by default `nil`: a design without
/// one is judged by the other tests), a sentence when the block did not start within 2 s, or else what
/// `body` returns.
func whileQueueHeld(
    of object: AnyObject, by block: String, barrier: Bool = false, ifNoQueue: String? = nil,
    _ body: (_ release: Signal) -> String?
) -> String? {
    guard let queue = queueProperty(of: object) else { return ifNoQueue }
    let release = Signal()
    defer { release.fire() }
    let held: Bool
    if barrier {
        let holding = Signal()
        startThread {
            queue.sync(flags: .barrier) {
                holding.fire()
                _ = release.happens(within: 3)
            }
        }
        held = holding.happens(within: 2)
    } else {
        held = occupy(queue, until: release)
    }
    guard held else { return "\(block) did not start within 2 s" }
    return body(release)
}

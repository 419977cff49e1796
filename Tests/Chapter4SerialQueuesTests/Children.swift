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
    let said: @Sendable (String?) -> String = { token in token.map { "\"\($0)\"" } ?? "nil" }
    let turns = Turns()
    let problems = Tally<String>()
    guard gatedThreads(threads: 2, iterations: 200, seconds: 3, { thread, round in
        let missed = turns.take(thread, inRound: round) { _ in
            if thread == 0 {
                write(value(round))
            } else {
                let seen = read(), expected = value(round)
                if seen != expected { problems.append("read \(said(seen)) right after token = \(said(expected))") }
            }
        }
        if let missed { problems.append(childTimedOut("turn \(missed) never came")) }
    }) else { return childTimedOut("the writer and the reader did not finish within 3 s") }
    guard let first = problems.all.first else { return nil }
    if isChildTimeout(first) { return first }
    return "the reader did not see the write just before it: \(problems.all.prefix(3))"
}

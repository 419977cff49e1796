import Foundation
import Testing

/// Runs `body` on several new threads that all start at the same moment.
///
/// A data race is reported only when the racing accesses really overlap in that run. Work sent to
/// GCD from a test often runs one block after another and hides the race; threads that each wait at
/// a start gate until all of them have arrived overlap every time. Each thread calls `body`
/// `iterations` times with its thread index and the iteration number.
///
/// Returns `false`, after recording a hang-kind failure naming `what`, if the threads do not all
/// finish within `seconds` (cut short once the test's suite has timed out, see ``AfterATimeOut``) —
/// learner code that blocks forever turns into a clear failure instead of a hung test run.
@discardableResult
package func runConcurrently(
    threads: Int = 4,
    iterations: Int = 1_000,
    _ what: String,
    seconds: Double = 5,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable (_ thread: Int, _ iteration: Int) -> Void
) -> Bool {
    if let waited = gatedWait(threads: threads, iterations: iterations, seconds: seconds, body) {
        recordTimeout(
            "\(what) — the \(threads) test threads did not all finish within \(formatSeconds(waited)); "
                + "something they call blocks (a wait nobody signals, or a caller blocked behind work that needs it).",
            sourceLocation: sourceLocation)
        return false
    }
    return true
}

/// ``runConcurrently(threads:iterations:_:seconds:sourceLocation:_:)`` without recording anything,
/// for exit tests' children, which report through the sentence they return: tells whether the
/// gated threads all finished within `seconds`.
package func gatedThreads(
    threads: Int = 4, iterations: Int, seconds: Double = 5,
    _ body: @escaping @Sendable (_ thread: Int, _ iteration: Int) -> Void
) -> Bool {
    gatedWait(threads: threads, iterations: iterations, seconds: seconds, body) == nil
}

/// The gated threads of ``gatedThreads(threads:iterations:seconds:_:)``, waited for as
/// ``AfterATimeOut/wait(upTo:until:)`` waits: `nil` when they all finished, or else the seconds waited.
func gatedWait(
    threads: Int, iterations: Int, seconds: Double,
    _ body: @escaping @Sendable (_ thread: Int, _ iteration: Int) -> Void
) -> Double? {
    let arrived = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)

    for index in 0..<threads {
        startThread {
            arrived.signal()
            go.wait()
            for iteration in 0..<iterations { body(index, iteration) }
            finished.signal()
        }
    }
    // The gate: nobody starts until every thread is ready to.
    for _ in 0..<threads { arrived.wait() }
    for _ in 0..<threads { go.signal() }

    var left = threads
    return AfterATimeOut.wait(upTo: seconds) { slice in
        while left > 0, finished.wait(timeout: .now() + slice) == .success { left -= 1 }
        return left == 0
    }
}

/// Starts `body` on a new thread and returns at once.
package func startThread(_ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.stackSize = 1 << 20
    thread.start()
}

/// "2 s", "0.5 s": a bound, as the failure messages say it.
package func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
}

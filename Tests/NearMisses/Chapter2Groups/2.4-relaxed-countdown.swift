// near-miss race: an Atomic<Int> countdown with .relaxed ordering decides which callback is the last, and only that one signals the semaphore the caller waits on; a relaxed decrement orders nothing else, so what the other functions wrote before calling back is not ordered before waitForAll returns.
import Dispatch
import Synchronization

private final class Countdown: Sendable {
    let remaining: Atomic<Int>
    init(_ count: Int) { remaining = Atomic(count) }
    /// `true` for the callback that brings the count to zero.
    func tick() -> Bool { remaining.subtract(1, ordering: .relaxed).newValue == 0 }
}

// Exercise 2.4 — waitForAll: the blocking variant of runAll.
//
// The contract:
// - Every function is started exactly once; waitForAll then blocks the calling thread until all of
//   them have called back or `timeout` has passed (a point in time, not a duration).
// - Each function calls back at most once: before it returns, later, or from another thread; many
//   may call back at the same moment.
// - Returns `true` as soon as every function has called back — at once for an empty list, or when
//   all of them called back before returning.
// - Returns `false` when the deadline passes while a function still holds its callback uncalled:
//   not before the deadline, and soon after it. A function that never calls back costs the caller
//   `timeout`, not its thread.
// - A function may also drop its callback: release it without ever calling it (an error path that
//   forgets to call back). That function never called back, so the answer is `false`, by the
//   deadline; and nothing stops the program.
// - Callbacks that come after a timeout change nothing: the answer already given stands, and
//   nothing stops the program.

/// Starts `functions` and blocks until all of them have called back or `timeout` has passed;
/// returns whether all of them called back in time.
///
/// Blocks the calling thread: never call it on the main thread, nor on a queue that one of the
/// functions needs in order to call back.
public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    guard !functions.isEmpty else { return true }
    let countdown = Countdown(functions.count)
    let allCalledBack = DispatchSemaphore(value: 0)
    for function in functions {
        function {
            if countdown.tick() { allCalledBack.signal() }
        }
    }
    return allCalledBack.wait(timeout: timeout) == .success
}

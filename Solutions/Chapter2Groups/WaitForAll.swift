import Dispatch
import Foundation

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
//   forgets to call back). That function never called back, so the answer is `false` (at the
//   deadline or earlier), and the program must not stop: a DispatchGroup must never be released
//   while it is still entered (Apple platforms trap: "BUG IN CLIENT OF LIBDISPATCH: Group object
//   deallocated while in use"; on Linux the entered group is leaked instead, so no test here can
//   see it).
// - Callbacks that come after a timeout change nothing and must not stop the program: the group is
//   left as it is, and their leave() calls still balance the enter() calls.

/// Starts `functions` and blocks until all of them have called back or `timeout` has passed;
/// returns whether all of them called back in time.
///
/// Blocks the calling thread: never call it on the main thread, nor on a queue that one of the
/// functions needs in order to call back.
public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    let group = DispatchGroup()
    let outcome = Outcome()
    for function in functions {
        // The callback object owns one enter() of the group. It leaves exactly once: when the
        // function calls back, or — if the function drops the callback uncalled — when the
        // callback is released. Either way the group is empty before its last owner lets go.
        let callback = Callback(group, outcome)
        function { callback.finish(calledBack: true) }
    }
    // `.timedOut` when the deadline passes first; callbacks still owed may arrive later, and
    // their leave() calls balance the enter() calls above. A dropped callback empties the group
    // too, so the result also asks whether every function really called back.
    return group.wait(timeout: timeout) == .success && !outcome.someoneDropped
}

/// Whether any callback was released without being called.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var dropped = false

    var someoneDropped: Bool { lock.withLock { dropped } }
    func recordDrop() { lock.withLock { dropped = true } }
}

/// One function's callback: holds one enter() of `group` and leaves it exactly once.
private final class Callback: @unchecked Sendable {
    private let group: DispatchGroup
    private let outcome: Outcome
    private let lock = NSLock()
    private var open = true

    init(_ group: DispatchGroup, _ outcome: Outcome) {
        self.group = group
        self.outcome = outcome
        group.enter()
    }

    func finish(calledBack: Bool) {
        let wasOpen = lock.withLock {
            defer { open = false }
            return open
        }
        guard wasOpen else { return }
        if !calledBack { outcome.recordDrop() }  // before leave(): the waiter reads it after
        group.leave()
    }

    deinit { finish(calledBack: false) }
}

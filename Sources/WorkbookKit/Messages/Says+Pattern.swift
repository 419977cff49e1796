import Foundation

/// The warnings of the pattern check (``PatternCheck``): a GCD mistake read in the learner's source
/// before any test runs.
extension Says {
    /// What `rule` says; `queue`: the queue's name where the rule names one.
    static func pattern(_ rule: PatternCheck.Rule, queue: String) -> String {
        switch rule {
        case .syncOnGlobalQueue:
            "`sync` onto a global queue excludes nobody: global queues are concurrent, so two callers run their blocks at the same time (Chapter 1). Use a serial queue of your own, or a lock."
        case .barrierOnGlobalQueue:
            "A `.barrier` flag on a global queue is ignored: Apple's documentation of `dispatch_barrier_async` says that on a global concurrent queue it behaves like a plain `async`. Barriers work on a concurrent queue you create (Chapter 4)."
        case .ignoredTimedWait:
            "The result of this timed wait is never looked at: once its deadline passes, the code goes on as if it had been signalled. That is wrong at any timeout you pick, because the work it waits for can always be slower; the tests cannot wait that long, so this line fails the exercise by itself. Look at the result (`.success` or `.timedOut`) and decide what a timeout means (Chapter 3, `wait(timeout:)`)."
        case .timedWaitGivesUp:
            "This exercise's contract has no timeout, so a wait that gives up after a while is wrong whatever time you give it: what it waits for can always take longer, and then the code either goes on as if it had been signalled or drops the work. The tests cannot wait that long, so this line fails the exercise by itself. Wait with `wait()`; to notice a slow wait, wait again in a loop: `while semaphore.wait(timeout: .now() + 1) == .timedOut { … }` (Chapter 3, `wait(timeout:)`)."
        case .sanitizerHook:
            "Exercise files may not declare C-level symbols (`@_cdecl`, `@_silgen_name`) or use the sanitizer's own hooks (`__tsan_…`, `__sanitizer_…`): they can change what the Thread Sanitizer reports, so this line fails the exercise by itself. Remove it."
        case .mainSync:
            "`DispatchQueue.main.sync` called from the main thread waits for itself (libdispatch stops the program on Apple platforms); from elsewhere it blocks until the main thread is free."
        case .syncOntoOwnQueue:
            "`\(queue).sync` inside a block that already runs on `\(queue)` waits for itself: libdispatch stops the program (on Apple platforms the crash report says \"\(Trap.syncOnOwnQueue.appleMessage ?? "")\"; on Linux it is a bare SIGILL or SIGTRAP) (Chapter 4)."
        case .queuePerCall:
            "\(queue == "DispatchQueue(…)" ? "This queue" : "`\(queue)`") is made anew on every call, so each call gets a serial queue of its own: two calls never wait for each other, and the queue keeps nothing apart. Which calls have to share one queue, and where would it have to live for them to share it? (Chapter 1, \"`sync` makes the caller wait; the queue decides who else waits\"; Chapter 4, \"A queue as a lock\")."
        case .waitOnQueue:
            "`wait()` without a timeout inside a block running on `\(queue)`, while the `signal()` or `leave()` it waits for is also sent to `\(queue)`: if the wait comes first, the signal waits behind it and never comes (Chapter 3)."
        }
    }
}

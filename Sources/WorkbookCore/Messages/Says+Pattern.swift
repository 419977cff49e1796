import Foundation

/// The warnings of the pattern check (``PatternCheck``): a GCD mistake read in the learner's source
/// before any test runs.
extension Says {
    /// What `rule` says; `queue`: the queue's name where the rule names one.
    static func pattern(_ rule: PatternCheck.Rule, queue: String) -> String {
        switch rule {
        case .syncOnGlobalQueue:
            "`sync` onto a global queue excludes nobody: global queues are concurrent, so two callers can run their blocks at the same time (Chapter 1, Exercise 1.1)."
        case .barrierOnGlobalQueue:
            "A `.barrier` flag on a global queue is ignored: Apple's documentation of `dispatch_barrier_sync` and `dispatch_barrier_async` says that on one of the global concurrent queues they behave like a plain `sync` and `async`, so this block runs beside everything else there. The Thread Sanitizer takes the flag at its word and reports only when two blocks happen to overlap, so no run can show this reliably: this line fails the exercise by itself. Which queue does a barrier need in order to hold others back? (Chapter 4, barriers)."
        case .ignoredTimedWait:
            "The result of this timed wait is never looked at: once its deadline passes, the code goes on as if it had been signalled. That is wrong at any timeout you pick, because the work it waits for can always be slower; the tests cannot wait that long, so this line fails the exercise by itself. Look at the result (`.success` or `.timedOut`) and decide what a timeout means (Chapter 3, `wait(timeout:)`)."
        case .timedWaitGivesUp:
            "This exercise's contract has no timeout, so anything that gives up after a while — a timed wait (`wait(timeout:)`, `wait(until:)`, `lock(before:)`), a timer (`asyncAfter`), a poll tried a fixed number of times — is wrong whatever time you give it: what it waits for can always take longer, and then the code either goes on as if it had been signalled or drops the work. The tests cannot wait that long, so this line fails the exercise by itself. Wait with `wait()`; to notice a slow wait, wait again in a loop: `while semaphore.wait(timeout: .now() + 1) == .timedOut { … }` (Chapter 3, `wait(timeout:)`)."
        case .changedOffItsQueue:
            "" // Said by `changedOffItsQueue(_:queue:readAt:)`, which names the property.
        case .unseenFence:
            "The Thread Sanitizer does not model a standalone fence (`atomicMemoryFence`): it sees the accesses the fence orders as unordered and reports them, so a right answer written this way cannot be graded. Put the ordering on the atomic operation itself — a `.releasing` store or decrement, an `.acquiring` load — for example `subtract(1, ordering: .acquiringAndReleasing)`, which TSan does see."
        case .unseenBarrier:
            "Under the Thread Sanitizer this barrier is lost: a barrier flag given through a `DispatchWorkItem`, or beside a `group:` or `qos:`, reaches libdispatch inside a work item that TSan's interceptor hands on without the flag (Exercises/MEASUREMENTS.md, M4), so the block runs beside the others there and the exercise cannot be graded. Write the barrier as `queue.async(flags: .barrier) { … }` or `queue.sync(flags: .barrier) { … }`."
        case .sanitizerHook:
            "Exercise files may not declare C-level symbols (`@_cdecl`, `@_silgen_name`) or use the sanitizer's own hooks (`__tsan_…`, `__sanitizer_…`): they can change what the Thread Sanitizer reports, so this line fails the exercise by itself. Remove it."
        case .mainSync:
            "`DispatchQueue.main.sync` called on the main thread waits for itself: the main queue belongs to the main thread, on Linux too, and libdispatch stops the program. Called from another thread, it blocks that thread until the main thread is free."
        case .syncOntoOwnQueue:
            "`\(queue).sync` inside a block that already runs on `\(queue)` waits for itself: libdispatch stops the program (on Apple platforms the crash report says \"\(Trap.syncOnOwnQueue.appleMessage ?? "")\"; on Linux it is a bare SIGILL or SIGTRAP) (Chapter 4)."
        case .queuePerCall:
            "\(queue == "DispatchQueue(…)" ? "This queue" : "`\(queue)`") is made anew on every call, so each call gets a serial queue of its own: two calls never wait for each other, and the queue keeps nothing apart. Which calls have to share one queue, and where would it have to live for them to share it? (Chapter 1, \"`sync` makes the caller wait; the queue decides who else waits\"; Chapter 4, \"A queue as a lock\")."
        case .waitOnQueue:
            "`wait()` without a timeout inside a block running on `\(queue)`, while the `signal()` or `leave()` it waits for is also sent to `\(queue)`: if the wait comes first, the signal waits behind it and never comes (Chapter 3)."
        }
    }
}

extension Says {
    /// A property read on `queue` (at `readAt`) and changed outside every block of it.
    static func changedOffItsQueue(_ name: String, queue: String, readAt: Int) -> String {
        "`\(name)` is read on `\(queue)` (line \(readAt)) but changed here, outside it: nothing orders this change with those reads, so a read can meet it halfway. The Thread Sanitizer cannot always see this pair — at -Onone a value returned out of a `sync` block is copied where it does not look (Exercises/MEASUREMENTS.md, M16) — so this line fails the exercise by itself."
    }
}

/// What libdispatch and the Swift runtime stop a program for, declared once: how each trap is
/// recognised and how the workbook explains it.
///
/// On Apple platforms libdispatch records why it stopped ("BUG IN CLIENT OF LIBDISPATCH: …") for the
/// crash report's Application Specific Information, not the program's output (`DISPATCH_CLIENT_CRASH`,
/// `src/internal.h`); on Linux those messages are compiled out and the process just traps (SIGILL on
/// x86-64, SIGTRAP on arm64). So the grader recognises a trap by its message in a Darwin crash
/// report, or by the function in the crashing thread's backtrace (gdb on Linux, the crash report on
/// Darwin). Sources: libdispatch's `src/queue.c`, `src/semaphore.c`.
package struct Trap: Sendable, Equatable {
    /// Functions in the crashing thread's backtrace that mean this trap.
    var symbols: [String]
    /// What Apple platforms' crash reports say for it.
    var appleMessage: String?
    /// The explanation a learner reads.
    var reason: String

    /// `leave()` without its `enter()` (`dispatch_group_leave`, src/semaphore.c).
    static let unbalancedLeave = Trap(
        symbols: ["dispatch_group_leave"],
        appleMessage: "Unbalanced call to dispatch_group_leave()",
        reason: "libdispatch stopped an unbalanced `leave()` — a `leave()` without its `enter()`")
    /// `sync` onto the serial queue the code already runs on (src/queue.c).
    static let syncOnOwnQueue = Trap(
        symbols: ["__DISPATCH_WAIT_FOR_QUEUE__", "_dispatch_sync_f_slow"],
        appleMessage: "dispatch_sync called on queue already owned by current thread",
        reason: "libdispatch stopped a `sync` onto the queue this code is already running on")
    /// A semaphore freed while its value is below the value it was created with (src/semaphore.c).
    static let semaphoreInUse = Trap(
        symbols: ["_dispatch_semaphore_dispose"],
        appleMessage: "Semaphore object deallocated while in use",
        reason: "libdispatch stopped a semaphore being freed while a place was still taken (its value was below the value it started with)")
    /// A group freed while its count is not zero (`_dispatch_group_dispose`, src/semaphore.c). Releasing
    /// an entered group does not get here: `dispatch_group_enter` retains the group when its count
    /// leaves zero, so an entered group is leaked, not freed; only a group released more often than
    /// it was retained is freed while entered.
    static let groupInUse = Trap(
        symbols: ["_dispatch_group_dispose", "dispatch_group_dispose"],
        appleMessage: "Group object deallocated while in use",
        reason: "libdispatch stopped a group being freed while work had entered and not left — a group that was over-released (released more often than it was retained); a group merely left entered is leaked, not freed")
    /// A failed Swift runtime check.
    static let swiftCheck = Trap(
        symbols: ["_assertionFailure"],
        appleMessage: nil,
        reason: "a Swift runtime check failed (a force-unwrapped nil, an index out of range, an overflow, or a precondition)")

    /// Every trap the grader knows, most specific first.
    static let all: [Trap] = [unbalancedLeave, syncOnOwnQueue, semaphoreInUse, groupInUse, swiftCheck]

    /// The explanation with Apple's words, when Apple has any: what a learner on either platform recognises.
    package var explained: String {
        appleMessage.map { "\(reason) (the crash report on Apple platforms says \"\($0)\")" } ?? reason
    }

    /// The trap a crash report's Application Specific Information line names.
    package static func recognised(inMessage line: String) -> Trap? {
        all.first { trap in trap.appleMessage.map(line.contains) ?? false }
    }

    /// The trap a backtrace's frames show, innermost first.
    package static func recognised(inFrames frames: [String]) -> Trap? {
        frames.lazy.compactMap { frame in all.first { $0.symbols.contains(where: frame.contains) } }.first
    }

    /// Lines of a crashed process's output worth quoting, most telling first: the traps' own
    /// messages, then the Swift runtime's and the system's.
    static let outputNeedles: [String] = all.compactMap(\.appleMessage) + [
        "BUG IN CLIENT OF LIBDISPATCH", "Fatal error:", "Precondition failed",
        "Assertion failed", "Illegal instruction", "Segmentation fault",
    ]
}

// near-miss crash: chapter 2's answer — a group, entered before each function, left in its callback, notified after the loop — is right for every function that calls back once; but a function that calls back twice leaves the group once more than it was entered, and libdispatch stops the program (on Apple platforms the crash report says "Unbalanced call to dispatch_group_leave()"; on Linux it just traps — libdispatch src/semaphore.c, `dispatch_group_leave`).
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Runs `functions` and calls `completion` on `queue` once all of them have called back.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        function { group.leave() }
    }
    group.notify(queue: queue, execute: completion)
}

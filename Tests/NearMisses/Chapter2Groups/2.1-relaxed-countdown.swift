// near-miss race: an Atomic<Int> countdown with .relaxed ordering decides which callback is last, but a relaxed decrement orders nothing else, so what the other functions wrote before calling back is not ordered before completion.
import Synchronization
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when it is done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

private final class Countdown: Sendable {
    let remaining: Atomic<Int>
    init(_ count: Int) { remaining = Atomic(count) }
    /// `true` for the call that brings the count to zero.
    func tick() -> Bool { remaining.subtract(1, ordering: .relaxed).newValue == 0 }
}

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    guard !functions.isEmpty else {
        queue.async(execute: completion)
        return
    }
    let countdown = Countdown(functions.count)
    for function in functions {
        queue.async {
            function {
                if countdown.tick() { queue.async(execute: completion) }
            }
        }
    }
}

// near-miss race: a group, and a flag per function so that only its first callback leaves — but the flag is plain memory: a second callback from another thread reads it with nothing ordering that read after the first callback's write (and two callbacks at the same moment can both see it unset and leave twice).
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
        var calledBack = false
        function {
            if !calledBack {  // its first callback?
                calledBack = true
                group.leave()
            }
        }
    }
    group.notify(queue: queue, execute: completion)
}

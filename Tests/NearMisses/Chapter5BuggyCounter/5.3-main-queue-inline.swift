// near-miss wrong: a group, counted right — but for an empty list with the main queue handed in, completion is called at once, inside runAll, on whatever thread called it ("it is for the main queue anyway"): a caller on another thread gets completion off the main queue, and even on it, completion runs before runAll returns. Only the explored scenarios hand `.main`. (Compared by label: on Linux `DispatchQueue.main` makes a new wrapper at each use — swift-corelibs-libdispatch, `src/swift/Queue.swift` — so `===` never matches there.)
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Runs `functions` and calls `completion` on `queue` once all of them have called back.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    if functions.isEmpty && queue.label == DispatchQueue.main.label {
        completion()  // nothing to wait for, and it is meant for the main queue anyway
        return
    }
    let group = DispatchGroup()
    // Only a function's first callback counts (it may call back again).
    let seen = DispatchQueue(label: "workbook.run-all")
    var calledBack = Set<Int>()
    for (index, function) in functions.enumerated() {
        group.enter()
        function {
            if seen.sync(execute: { calledBack.insert(index).inserted }) { group.leave() }
        }
    }
    group.notify(queue: queue, execute: completion)
}

// near-miss hang: `notify` is registered inside the loop, once per function, so completion runs once per function — and for an empty list it is never registered, so completion never comes.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Runs `functions` and calls `completion` on `queue` once all of them have called back.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    // Only a function's first callback counts (it may call back again).
    let seen = DispatchQueue(label: "workbook.run-all")
    var calledBack = Set<Int>()
    for (index, function) in functions.enumerated() {
        group.enter()
        function {
            if seen.sync(execute: { calledBack.insert(index).inserted }) { group.leave() }
        }
        group.notify(queue: queue, execute: completion)
    }
}

// near-miss wrong: `notify` is registered before the loop, when nothing has entered the group yet, so it fires at once — completion runs before any function has called back.
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
    group.notify(queue: queue, execute: completion)
    for (index, function) in functions.enumerated() {
        group.enter()
        function {
            if seen.sync(execute: { calledBack.insert(index).inserted }) { group.leave() }
        }
    }
}

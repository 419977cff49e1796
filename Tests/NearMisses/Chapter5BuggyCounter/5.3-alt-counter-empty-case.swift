// alternative: the starter's count on a serial queue, with the empty list sent to `queue` at once, and a set on the same queue so that only each function's first callback counts.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Runs `functions` and calls `completion` on `queue` once all of them have called back.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    guard !functions.isEmpty else {
        queue.async(execute: completion)
        return
    }
    let counter = DispatchQueue(label: "workbook.run-all")
    var remaining = functions.count
    var calledBack = Set<Int>()  // only a function's first callback counts
    for (index, function) in functions.enumerated() {
        function {
            let finished = counter.sync { () -> Bool in
                guard calledBack.insert(index).inserted else { return false }
                remaining -= 1
                return remaining == 0
            }
            if finished { queue.async(execute: completion) }
        }
    }
}

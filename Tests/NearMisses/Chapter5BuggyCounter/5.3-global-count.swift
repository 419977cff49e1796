// near-miss hang: one count for every call, at file scope: while one call still waits for its functions, another call's completion waits for them too — and a call whose functions have all called back never completes.
import Dispatch

private let counter = DispatchQueue(label: "workbook.run-all")
private var remaining = 0

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
    counter.sync { remaining += functions.count }
    for function in functions {
        function {
            let finished = counter.sync { () -> Bool in
                remaining -= 1
                return remaining == 0
            }
            if finished { queue.async(execute: completion) }
        }
    }
}

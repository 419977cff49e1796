// near-miss race: the count is kept "on" the queue that was handed in, with `queue.sync` — which guards nothing when `queue` is concurrent: functions calling back from several threads change `remaining` at the same time.
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
    var remaining = functions.count
    for function in functions {
        function {
            let finished = queue.sync { () -> Bool in
                remaining -= 1
                return remaining == 0
            }
            if finished { queue.async(execute: completion) }
        }
    }
}

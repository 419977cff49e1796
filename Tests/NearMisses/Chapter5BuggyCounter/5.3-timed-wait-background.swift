// near-miss wrong: a background block waits for the group at most a second, looks at the result — and completes anyway when the time is up, so a function slower than a second is not waited for.
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
    }
    DispatchQueue.global().async {
        if group.wait(timeout: .now() + 1) == .timedOut {
            print("runAll: still waiting after 1 s, completing anyway")
        }
        queue.async(execute: completion)
    }
}

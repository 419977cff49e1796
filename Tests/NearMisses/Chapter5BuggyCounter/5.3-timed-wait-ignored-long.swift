// near-miss wrong: a background block waits for the group with a long timeout and ignores the result — after 30 s completion runs whether or not every function has called back; any test shorter than that cannot see it (the grader's rule for an ignored timed wait does).
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
        _ = group.wait(timeout: .now() + 30)  // never wait for ever
        queue.async(execute: completion)
    }
}

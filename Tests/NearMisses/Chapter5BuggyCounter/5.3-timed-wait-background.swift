// near-miss wrong: a background block waits for the group at most a second, looks at the result — and completes anyway when the time is up, so a function slower than a second is not waited for.
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
        function { group.leave() }
    }
    DispatchQueue.global().async {
        if group.wait(timeout: .now() + 1) == .timedOut {
            print("runAll: still waiting after 1 s, completing anyway")
        }
        queue.async(execute: completion)
    }
}

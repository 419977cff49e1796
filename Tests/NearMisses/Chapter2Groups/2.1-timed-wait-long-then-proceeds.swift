// near-miss wrong: a helper thread waits for the group with a 30 s timeout, only prints when it times out, and schedules completion anyway, so a function that takes half a minute gets completion before it calls back.
import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when it is done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        queue.async {
            function { group.leave() }
        }
    }
    DispatchQueue.global().async {
        if group.wait(timeout: .now() + 30) == .timedOut {
            print("runAll: some functions are slow to call back")
        }
        queue.async(execute: completion)
    }
}

import Dispatch

// Fault drill: runAll waits on its own group before it returns, so a caller whose functions call
// back later is blocked for good. Plain `swift test --filter Chapter2` must still end, quickly, with
// this exercise failed and the others graded.
public typealias Block = () -> Void
public typealias FunctionWithCallback = (@escaping Block) -> Void

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        queue.async { function { group.leave() } }
    }
    group.wait()
    queue.async(execute: completion)
}

// near-miss wrong: The callbacks count down on the handed queue itself, each in a barrier block, so that no two run at once — on a serial queue or a concurrent queue of the caller's that holds. But a global queue ignores the barrier flag: there the blocks run side by side, countdowns are lost, and the completion runs at the wrong time or never.
import Dispatch

public typealias Block = () -> Void
public typealias FunctionWithCallback = (@escaping Block) -> Void

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    guard !functions.isEmpty else {
        queue.async(execute: completion)
        return
    }
    var remaining = functions.count
    for function in functions {
        queue.async {
            function {
                queue.async(flags: .barrier) {
                    remaining -= 1
                    if remaining == 0 { completion() }
                }
            }
        }
    }
}

import Dispatch

// Fault drill: an infinite loop that never calls back.
public typealias Block = () -> Void
public typealias FunctionWithCallback = (@escaping Block) -> Void

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    var spins = 0
    while spins >= 0 { spins = (spins + 1) % 1_000 }
}

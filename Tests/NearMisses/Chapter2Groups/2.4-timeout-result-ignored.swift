// near-miss wrong: the result of wait(timeout:) is thrown away, so waitForAll returns true at the deadline even though a function never called back.
import Dispatch

public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        function { group.leave() }
    }
    // Never block past the deadline.
    _ = group.wait(timeout: timeout)
    return true
}

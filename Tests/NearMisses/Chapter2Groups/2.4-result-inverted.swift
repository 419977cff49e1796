// near-miss wrong: the result of wait(timeout:) is compared with .timedOut, so waitForAll answers true when the deadline passed and false when everything called back.
import Dispatch

public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        function { group.leave() }
    }
    return group.wait(timeout: timeout) == .timedOut
}

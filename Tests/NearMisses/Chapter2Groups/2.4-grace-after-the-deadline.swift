// near-miss wrong: At the deadline it waits a little longer — a grace of 0.3 s "for callbacks racing the deadline" — and answers true if they all came in it: a function that called back after the deadline counts as in time. Still soon after the deadline, so a function that never calls back sees false in time; only a callback between the deadline and the answer shows it.
import Dispatch

public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        function { group.leave() }
    }
    if group.wait(timeout: timeout) == .success { return true }
    // A little grace for callbacks that race the deadline.
    return group.wait(timeout: .now() + 0.3) == .success
}

// near-miss wrong: A deadline already past is answered before anything is started: false at once, "there is no time left". But the functions must be started all the same, and when every one of them calls back before it returns, the answer is true whatever the deadline.
import Dispatch

public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    if timeout <= .now() && !functions.isEmpty { return false }
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        function { group.leave() }
    }
    return group.wait(timeout: timeout) == .success
}

// near-miss wrong: the functions run as group blocks with an empty callback, so the group counts each function until it returns, not until it calls back, and waitForAll returns true too early.
import Dispatch

public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    let group = DispatchGroup()
    for function in functions {
        // The group tracks each block until it has run.
        DispatchQueue.global().async(group: group) {
            function {}
        }
    }
    return group.wait(timeout: timeout) == .success
}

// near-miss crash: after a timeout it calls leave() for the functions that have not called back, so when their callbacks do arrive, each leave() has no enter() left and the program stops.
import Dispatch
import Foundation

public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    let group = DispatchGroup()
    let lock = NSLock()
    var outstanding = functions.count
    for function in functions {
        group.enter()
        function {
            lock.lock()
            outstanding -= 1
            lock.unlock()
            group.leave()
        }
    }
    if group.wait(timeout: timeout) == .success { return true }
    // Tidy up: leave for the functions that have not called back, so the group is empty when it goes.
    lock.lock()
    let missing = outstanding
    lock.unlock()
    for _ in 0..<missing { group.leave() }
    return false
}

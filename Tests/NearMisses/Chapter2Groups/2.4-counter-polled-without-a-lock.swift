// near-miss race: the callbacks count down a plain variable that the waiting thread polls, with no lock, so callbacks on several threads at once race on it (and updates get lost).
import Dispatch
import Foundation

public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    var remaining = functions.count
    for function in functions {
        function { remaining -= 1 }
    }
    // Look every millisecond until everything has called back, or the deadline has passed.
    while remaining > 0 {
        if DispatchTime.now() >= timeout { return false }
        Thread.sleep(forTimeInterval: 0.001)
    }
    return true
}

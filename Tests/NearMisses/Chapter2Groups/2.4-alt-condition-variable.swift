// alternative: a count guarded by NSCondition; callbacks count down and broadcast, and the caller waits on the condition until zero or the deadline.
import Dispatch
import Foundation

public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    let condition = NSCondition()
    var remaining = functions.count
    for function in functions {
        function {
            condition.lock()
            remaining -= 1
            if remaining == 0 { condition.broadcast() }
            condition.unlock()
        }
    }
    // NSCondition takes a Date: turn the DispatchTime deadline into one.
    let now = DispatchTime.now().uptimeNanoseconds
    let left = timeout.uptimeNanoseconds > now ? Double(timeout.uptimeNanoseconds - now) / 1e9 : 0
    let deadline = Date(timeIntervalSinceNow: min(left, 365 * 86_400))  // .distantFuture: a year will do
    condition.lock()
    defer { condition.unlock() }
    while remaining > 0 {
        if !condition.wait(until: deadline) { return remaining == 0 }
    }
    return true
}

// near-miss wrong: the group's notify block signals a semaphore, and the caller waits for that signal with the deadline — but the notify block is submitted asynchronously, so with a deadline already past (or `.now()`) the wait gives up before it has run, even when every function called back before returning; the contract answers true then, whatever the deadline.
import Dispatch

public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        function { group.leave() }
    }
    let allDone = DispatchSemaphore(value: 0)
    group.notify(queue: .global()) { allDone.signal() }
    return allDone.wait(timeout: timeout) == .success
}

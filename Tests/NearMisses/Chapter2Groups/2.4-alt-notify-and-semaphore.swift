// alternative: the group's notify block signals a semaphore, and the caller waits for that signal with the deadline — after a look at the group itself, so that functions that all called back before returning answer true whatever the deadline.
import Dispatch

public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        function { group.leave() }
    }
    // Every function may have called back already, before it returned: then the answer is true
    // whatever the deadline, before any notify block could run.
    if group.wait(timeout: .now()) == .success { return true }
    let allDone = DispatchSemaphore(value: 0)
    group.notify(queue: .global()) { allDone.signal() }
    return allDone.wait(timeout: timeout) == .success
}

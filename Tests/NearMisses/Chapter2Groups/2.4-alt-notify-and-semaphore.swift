// alternative: the group's notify block signals a semaphore, and the caller waits for that signal with the deadline.
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

// near-miss hang: it waits for the notify block with semaphore.wait() and no deadline, so a function that never calls back blocks the caller for ever.
import Dispatch

public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        function { group.leave() }
    }
    // notify is the non-blocking way; a semaphore turns it into a wait.
    let allDone = DispatchSemaphore(value: 0)
    group.notify(queue: .global()) { allDone.signal() }
    allDone.wait()
    return true
}

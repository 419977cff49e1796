// alternative: every callback signals a semaphore, and the caller waits for one signal per function, each time with the same absolute deadline.
import Dispatch

public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    let calledBack = DispatchSemaphore(value: 0)
    for function in functions {
        function { calledBack.signal() }
    }
    for _ in functions {
        if calledBack.wait(timeout: timeout) == .timedOut { return false }
    }
    return true
}

import Chapter2Groups
import Dispatch
import Testing
import WorkbookTestSupport

/// A call to `waitForAll` made on a thread of its own, so that a wait that never ends blocks that
/// thread and not the test.
private final class WaitCall: Sendable {
    let returned = Signal()
    /// What waitForAll returned, and whether it returned clearly (more than 50 ms) before the
    /// deadline — a little slack for clock granularity.
    let outcome = Tally<(result: Bool, beforeDeadline: Bool)>()

    init(_ functions: [FunctionWithCallback], timeout: DispatchTime) {
        let functions = Unchecked(functions)
        startThread { [returned, outcome] in
            let result = waitForAll(functions.value, timeout: timeout)
            outcome.append((result, DispatchTime.now() + 0.05 < timeout))
            returned.fire()
        }
    }
}

@Suite("2.4 waitForAll(_:timeout:)")
struct Exercise2_4Tests {
    @Test("returns true once every function has called back, and not before")
    func trueAfterEveryCallback() {
        let held = HeldCallbacks()
        let started = Signal()
        let parked: FunctionWithCallback = { done in
            held.work(done)
            started.fire()
        }
        let functions = [fakeWork(.synchronous), fakeWork(.asynchronous)] + Array(repeating: parked, count: 200)

        let call = WaitCall(functions, timeout: .now() + 5)
        for _ in 0..<200 {
            guard started.wait("waitForAll did not start all 200 functions within 2 s") else { return }
        }
        if call.returned.happens(within: 0.1) {
            Issue.record("waitForAll returned (\(call.outcome.all.map { $0.result })) while 200 functions had not called back yet; it must block until they have")
            held.releaseAll(threads: 4, "calling back 200 times from 4 threads")
            return
        }
        held.releaseAll(threads: 4, "calling back 200 times from 4 threads")
        call.returned.wait("waitForAll did not return within 2 s of the last callback, although its timeout was 5 s away")
        #expect(call.outcome.all.map { $0.result } == [true], "every function called back in time, so waitForAll must return true")
    }

    @Test("gives up at the timeout and returns false when a function never calls back")
    func falseAtTheTimeout() {
        let never = HeldCallbacks()  // its callback comes only after the test is over
        let deadline = DispatchTime.now() + 0.3
        let call = WaitCall([fakeWork(.synchronous), never.work], timeout: deadline)
        defer { never.releaseAll(threads: 1, "unblocking the thread left waiting") }

        guard call.returned.wait("""
            waitForAll(timeout: 0.3 s from now) had not returned 1.5 s later, while one function never \
            called back. A wait without a deadline blocks its thread for ever; use the timeout.
            """, seconds: 1.5) else { return }
        #expect(call.outcome.all.map { $0.result } == [false], "a function never called back, so waitForAll must return false")
        #expect(call.outcome.all.allSatisfy { !$0.beforeDeadline }, "waitForAll returned false well before the deadline; it must give the functions until then to call back")
    }

    @Test("callbacks made before the functions return, and an empty list: true at once")
    func synchronousAndEmpty() {
        for functions in [[], Array(repeating: fakeWork(.synchronous), count: 3)] {
            let call = WaitCall(functions, timeout: .now() + 5)
            guard call.returned.wait("waitForAll with \(functions.count) functions that had all called back did not return within 2 s") else { return }
            #expect(call.outcome.all.map { $0.result } == [true], "with \(functions.count) functions that all called back, waitForAll must return true")
        }
    }
}

import Chapter2Groups
import Dispatch
import Testing
import WorkbookTestSupport

// The contract (WaitForAll.swift) and the tests that check each clause:
// - every function is started once ........................................ trueAfterEveryCallback
// - true once every function has called back — not before, however the
//   callbacks come (at once, later, from many threads at once) ............. trueAfterEveryCallback, synchronousAndEmpty
// - false when the deadline passes first: not before it, and soon after it . falseAtTheTimeout
// - a callback dropped uncalled: false, by the deadline, nothing stops ...... droppedCallbackIsFalse
//   (the group it leaves entered is leaked, not a crash, on every current platform: libdispatch's
//   dispatch_group_enter retains it; Exercises/MEASUREMENTS.md, M8)
// - an empty list, or callbacks all made already: true at once .............. synchronousAndEmpty
// - callbacks that come after a timeout change nothing and stop nothing ...... lateCallbacksAreHarmless (exit test)

/// A call to `waitForAll` made on a thread of its own, so that a wait that never ends blocks that
/// thread and not the test.
private final class WaitCall: Sendable {
    let returned = Signal()
    /// What waitForAll returned, and when, relative to its deadline: `early` is more than 50 ms
    /// before it (a little slack for clock granularity), `late` more than 0.5 s after it.
    let outcome = Tally<(result: Bool, early: Bool, late: Bool)>()

    init(_ functions: [FunctionWithCallback], timeout: DispatchTime) {
        let functions = Unchecked(functions)
        startThread { [returned, outcome] in
            let result = waitForAll(functions.value, timeout: timeout)
            let now = DispatchTime.now()
            outcome.append((result, now + 0.05 < timeout, now > timeout + 0.5))
            returned.fire()
        }
    }

    var results: [Bool] { outcome.all.map(\.result) }
}

@Suite("2.4 waitForAll(_:timeout:)", .gradedUnderTSan)
struct Exercise2_4Tests {
    @Test("returns true once every function has called back from 4 threads at once, and not before")
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
            Issue.record("waitForAll returned (\(call.results)) while 200 functions had not called back yet; it must block until they have")
            held.releaseAll(threads: 4, "calling back 200 times from 4 threads")
            return
        }
        held.releaseAll(threads: 4, "calling back 200 times from 4 threads")
        guard call.returned.wait("waitForAll did not return within 2 s of the last callback, although its timeout was 5 s away") else { return }
        #expect(call.results == [true], "every function called back in time, so waitForAll must return true")
        #expect(call.outcome.all.allSatisfy { $0.early }, "waitForAll returned only at its deadline; it must return as soon as the last function has called back")
    }

    @Test("gives up at the timeout and returns false when a function never calls back")
    func falseAtTheTimeout() {
        let never = HeldCallbacks()  // released only to free a thread left waiting for ever
        let deadline = DispatchTime.now() + 0.3
        let call = WaitCall([fakeWork(.synchronous), never.work], timeout: deadline)

        guard call.returned.wait("""
            waitForAll(timeout: 0.3 s from now) had not returned 1.5 s later, while one function never \
            called back: the calling thread was still blocked. Read "Waiting with a deadline" in \
            the lesson.
            """, seconds: 1.5) else {
            never.releaseAll(threads: 1, "unblocking the thread left waiting")
            return
        }
        #expect(call.results == [false], "a function never called back, so waitForAll must return false")
        #expect(call.outcome.all.allSatisfy { !$0.early }, "waitForAll returned well before the deadline; it must give the functions until then to call back")
        #expect(call.outcome.all.allSatisfy { !$0.late }, "waitForAll returned more than 0.5 s after its deadline; it must give up at the deadline it was given")
    }

    @Test("a function that drops its callback without calling it: false, by the deadline")
    func droppedCallbackIsFalse() {
        // The callback is released as soon as the function returns, never called.
        let drops: FunctionWithCallback = { _ in }
        let deadline = DispatchTime.now() + 0.3
        let call = WaitCall([fakeWork(.synchronous), drops], timeout: deadline)

        guard call.returned.wait("""
            waitForAll(timeout: 0.3 s from now) had not returned 1.5 s later, while one function had \
            dropped its callback without calling it. That function will never call back; read \
            "Waiting with a deadline" in the lesson.
            """, seconds: 1.5) else { return }
        #expect(call.results == [false], """
            a function released its callback without ever calling it, yet waitForAll returned true: \
            only functions that called back count as finished.
            """)
        #expect(call.outcome.all.allSatisfy { !$0.late }, "waitForAll returned more than 0.5 s after its deadline")
    }

    @Test("callbacks made before the functions return, and an empty list: true at once")
    func synchronousAndEmpty() {
        for functions in [[], Array(repeating: fakeWork(.synchronous), count: 3)] {
            let call = WaitCall(functions, timeout: .now() + 5)
            guard call.returned.wait("waitForAll with \(functions.count) functions that had all called back did not return within 2 s") else { return }
            #expect(call.results == [true], "with \(functions.count) functions that all called back, waitForAll must return true")
            #expect(call.outcome.all.allSatisfy { $0.early }, "with \(functions.count) functions that had all called back, waitForAll waited for its deadline; it must return at once")
        }
    }

    @Test("a callback that comes after the timeout changes nothing and stops nothing")
    func lateCallbacksAreHarmless() async {
        // In a child process: an answer that leaves the group on the late callbacks' behalf stops
        // the program when they do arrive, and only this test should fail.
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) {
            runInChild(seconds: 2) {
                let late = HeldCallbacks()
                let outcome = Tally<Bool>(), returned = Signal()
                startThread {
                    outcome.append(waitForAll([fakeWork(.synchronous), late.work, late.work], timeout: .now() + 0.2))
                    returned.fire()
                }
                // A wait that never gives up is falseAtTheTimeout's failure; this test is about
                // what happens after waitForAll returns.
                guard returned.happens(within: 1), let result = outcome.all.first else { return nil }
                // The two callbacks arrive now, from two threads at once, after waitForAll gave up.
                late.releaseAll(threads: 2, "calling back late, from 2 threads")
                let again = waitForAll([fakeWork(.synchronous)], timeout: .now() + 1)
                if !result { return again ? nil : "a later waitForAll, whose one function called back at once, returned false" }
                return "two functions never called back before the deadline, yet waitForAll returned true"
            }
        }
        judgeChild(
            result, "Calling back after waitForAll had returned false",
            ifItCrashed: """
                The program stopped when callbacks arrived after waitForAll had returned false. \
                libdispatch traps on a `leave()` that has no `enter()` (on Apple platforms it prints \
                "Unbalanced call to dispatch_group_leave()"; on Linux the process just stops with \
                SIGILL or SIGTRAP). Count how many leave() calls each enter() gets.
                """)
    }
}

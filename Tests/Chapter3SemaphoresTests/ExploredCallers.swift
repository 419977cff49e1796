import Dispatch
import Foundation
import WorkbookTestSupport
import WorkbookWire

// What the explored runs of 3.1, 3.2 and 3.3 share: callers sent off at once, each from its place,
// whose calls must all return at once; and, for 3.1 and 3.2, an object the scenario may let go once
// everyone has asked, a record left to settle, and calls served in the order they were made.

/// A caller of an explored run: how to run work from its place, and the calls it makes there, in order.
struct ExploredCaller {
    /// Runs the work it is given from the caller's place, without waiting for it.
    let start: (_ work: @escaping @Sendable () -> Void) -> Void
    let calls: @Sendable () -> Void
}

/// An explored contract whose calls, made from every place, must return at once.
protocol ExploredCallers: ExploredContract {
    /// The clause that says the calls return at once, as the header says it.
    static var returnsAtOnce: String { get }
    /// The call, as an observation names it: "present(_:)".
    static var call: String { get }
}

extension ExploredCallers {
    /// Sends every caller off at once, each from its place, to make its calls, and waits up to
    /// `seconds` for each to return from them; the violation of ``returnsAtOnce`` when one did not.
    static func callersReturn(within seconds: Int, _ callers: [ExploredCaller]) -> Violation? {
        let callersDone = Signal()
        for caller in callers {
            let calls = caller.calls
            caller.start {
                calls()
                callersDone.fire()
            }
        }
        for _ in callers where !callersDone.happens(within: Double(seconds)) {
            return Violation(clause: returnsAtOnce, observed: "a caller's \(call) calls did not all return within \(seconds) s.", timedOut: true)
        }
        return nil
    }

    /// The violation of ``returnsAtOnce`` when the slowest call took more than half a second.
    static func tookTooLong(_ slowest: Double) -> Violation? {
        guard slowest > 0.5 else { return nil }
        return Violation(clause: returnsAtOnce, observed: "a \(call) call took \(formatSeconds(slowest)) to return.")
    }

    /// Makes the object under test into `reference` within 2 s, kept for good unless the scenario
    /// lets it go once everyone has asked (`letGo`); the violation "Nothing traps or hangs." when
    /// `initializer` did not return.
    static func make<Object: AnyObject>(
        _ initializer: String, into reference: LastReference<Object>, letGo: Bool, _ make: @escaping @Sendable () -> Object
    ) -> Violation? {
        guard within(2, { reference.set(letGo ? make() : keptForever(make())) }) != nil else {
            return Violation(clause: "Nothing traps or hangs.", observed: "\(initializer) did not return within 2 s.", timedOut: true)
        }
        return nil
    }

    /// Waits while `unsettled` holds, up to 2.5 s, then 20 ms more: something done twice (a modal
    /// shown twice, a completion called twice, a request sent twice) shows up a moment later.
    static func settle(while unsettled: () -> Bool) {
        let deadline = Date().addingTimeInterval(2.5)
        while unsettled() && Date() < deadline { usleep(2_000) }
        usleep(20_000)
    }

    /// Two calls of which the second began after the first had returned, yet was served before it
    /// (`servedAt`: when, or in which turn, each call was served); `nil` when there are none.
    static func servedOutOfOrder(began: [Int: Int], returned: [Int: Int], servedAt: [Int: Int]) -> (first: Int, second: Int)? {
        for (first, returned) in returned {
            for (second, began) in began where returned < began {
                if let a = servedAt[first], let b = servedAt[second], b < a { return (first, second) }
            }
        }
        return nil
    }
}

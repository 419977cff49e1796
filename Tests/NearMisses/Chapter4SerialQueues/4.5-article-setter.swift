// near-miss crash: the getter is fixed, but the setter still stores `token` — reading the property inside the setter's block runs the getter on the queue that block holds, and its precondition (or libdispatch) traps.
import Dispatch

/// An authentication token that any thread may read or replace.
public final class AuthToken {
    private let queue = DispatchQueue(label: "workbook.auth-token")
    private var cachedToken: String

    public init(token: String) {
        cachedToken = token
    }

    /// The current token.
    public var token: String {
        get {
            dispatchPrecondition(condition: .notOnQueue(queue))
            return queue.sync { cachedToken }
        }
        set {
            dispatchPrecondition(condition: .notOnQueue(queue))
            queue.sync {
                cachedToken = token
            }
        }
    }
}

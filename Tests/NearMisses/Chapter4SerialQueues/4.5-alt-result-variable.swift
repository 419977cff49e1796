// alternative: the getter copies the token into a local inside `queue.sync` and returns the local after `sync` has returned — the return belongs to the getter, the read to the queue.
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
            var current = ""
            queue.sync {
                current = cachedToken
            }
            return current
        }
        set {
            dispatchPrecondition(condition: .notOnQueue(queue))
            queue.sync { cachedToken = newValue }
        }
    }
}

// near-miss wrong: the setter captures `[token]` before its async block to stop the trap — the capture reads the token being replaced, so every set stores the old value again and changes nothing.
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
            queue.async { [token] in
                self.cachedToken = token
            }
        }
    }
}

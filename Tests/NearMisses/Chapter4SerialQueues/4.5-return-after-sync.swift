// near-miss race: the getter silences the compiler by discarding what `sync` returns and returning `cachedToken` afterwards — that second read happens outside the queue and races with every set.
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
            _ = queue.sync {
                return cachedToken
            }
            return cachedToken
        }
        set {
            dispatchPrecondition(condition: .notOnQueue(queue))
            queue.sync { cachedToken = newValue }
        }
    }
}

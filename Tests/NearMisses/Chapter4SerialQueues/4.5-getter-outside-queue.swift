// near-miss race: the getter compiles by reading `cachedToken` directly after its precondition — a read outside the queue is ordered with no write on it, so it races with every set.
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
            return cachedToken                           // the sync was only in the way
        }
        set {
            dispatchPrecondition(condition: .notOnQueue(queue))
            queue.sync { cachedToken = newValue }
        }
    }
}

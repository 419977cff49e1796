// near-miss race: only the getter goes through the queue — two threads that set the token write `cachedToken` at the same time, and each write races with every read.
import Dispatch

/// Holds an authentication token that any thread may read or replace.
public final class TokenStore {
    let queue = DispatchQueue(label: "workbook.token-store")
    var cachedToken: String?

    public init() {}

    /// The current token, or `nil` when there is none.
    public var token: String? {
        get { queue.sync { cachedToken } }
        set { cachedToken = newValue }
    }
}

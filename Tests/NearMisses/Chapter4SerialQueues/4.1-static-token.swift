// near-miss wrong: the token is kept in a `static` property behind `cachedToken` — every access is on the queue and TSan-clean for one store, but there is one token for every store: a token set on one store is read from any other.
import Dispatch

/// Holds an authentication token that any thread may read or replace.
public final class TokenStore {
    let queue = DispatchQueue(label: "workbook.token-store")
    /// One token for the whole app.
    private static var sharedToken: String?
    var cachedToken: String? {
        get { TokenStore.sharedToken }
        set { TokenStore.sharedToken = newValue }
    }

    public init() {}

    /// The current token, or `nil` when there is none.
    public var token: String? {
        get { queue.sync { cachedToken } }
        set { queue.sync { cachedToken = newValue } }
    }
}

// alternative: the getter copies the token into a local inside `queue.sync` and returns the local afterwards — older Swift style, same ordering as returning through `sync`.
import Dispatch

/// Holds an authentication token that any thread may read or replace.
public final class TokenStore {
    let queue = DispatchQueue(label: "workbook.token-store")
    var cachedToken: String?

    public init() {}

    /// The current token, or `nil` when there is none.
    public var token: String? {
        get {
            var current: String?
            queue.sync { current = cachedToken }
            return current
        }
        set {
            queue.sync { cachedToken = newValue }
        }
    }
}

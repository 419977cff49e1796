// near-miss race: clearing the token (`token = nil`) writes `cachedToken` outside the queue — a reset is a write like any other, and races with the reads and writes on the queue.
import Dispatch

/// Holds an authentication token that any thread may read or replace.
public final class TokenStore {
    let queue = DispatchQueue(label: "workbook.token-store")
    var cachedToken: String?

    public init() {}

    /// The current token, or `nil` when there is none.
    public var token: String? {
        get { queue.sync { cachedToken } }
        set {
            if newValue == nil {
                cachedToken = nil                        // nothing to protect when clearing
            } else {
                queue.sync { cachedToken = newValue }
            }
        }
    }
}

// near-miss race: only the setter goes through the queue — a read of `cachedToken` outside it is not ordered with a write on it, so a reader races with every writer.
import Dispatch

/// Holds an authentication token that any thread may read or replace.
public final class TokenStore {
    let queue = DispatchQueue(label: "workbook.token-store")
    var cachedToken: String?

    public init() {}

    /// The current token, or `nil` when there is none.
    public var token: String? {
        get { cachedToken }                              // reading is harmless… isn't it?
        set { queue.sync { cachedToken = newValue } }
    }
}

// near-miss crash: the article's setter assigns `token` instead of `newValue` — reading `token` inside the setter's block runs the getter, whose `sync` targets the queue that block is running on, and libdispatch traps.
import Dispatch

/// Holds an authentication token that any thread may read or replace.
public final class TokenStore {
    let queue = DispatchQueue(label: "workbook.token-store")
    var cachedToken: String?

    public init() {}

    /// The current token, or `nil` when there is none.
    public var token: String? {
        get { queue.sync { cachedToken } }
        set { queue.sync { cachedToken = token } }
    }
}

// near-miss race: `sync` on a global queue orders nothing — global queues are concurrent, so blocks from different threads run at the same time and the accesses to `cachedToken` still race.
import Dispatch

/// Holds an authentication token that any thread may read or replace.
public final class TokenStore {
    let queue = DispatchQueue(label: "workbook.token-store")
    var cachedToken: String?

    public init() {}

    /// The current token, or `nil` when there is none.
    public var token: String? {
        get { DispatchQueue.global().sync { cachedToken } }
        set { DispatchQueue.global().sync { cachedToken = newValue } }
    }
}

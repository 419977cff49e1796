// near-miss crash: the setter queues its write with `queue.async { [unowned self] in … }` to avoid keeping the store alive — but the block can run after the store's last reference is gone, and reading an `unowned` reference to a released object traps.
import Dispatch

/// Holds an authentication token that any thread may read or replace.
public final class TokenStore {
    let queue = DispatchQueue(label: "workbook.token-store")
    var cachedToken: String?

    public init() {}

    /// The current token, or `nil` when there is none.
    public var token: String? {
        get { queue.sync { cachedToken } }
        set { queue.async { [unowned self] in cachedToken = newValue } }
    }
}

// alternative: the setter submits its write with `queue.async` and returns at once — a serial queue runs blocks in order, so any read made after the set returned queues behind the write and sees it.
import Dispatch

/// Holds an authentication token that any thread may read or replace.
public final class TokenStore {
    let queue = DispatchQueue(label: "workbook.token-store")
    var cachedToken: String?

    public init() {}

    /// The current token, or `nil` when there is none.
    public var token: String? {
        get { queue.sync { cachedToken } }
        set { queue.async { self.cachedToken = newValue } }
    }
}

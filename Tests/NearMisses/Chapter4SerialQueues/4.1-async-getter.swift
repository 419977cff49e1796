// near-miss race: the getter reads on the queue with `async` and returns at once — the block writes `current` later, on another thread, while the getter reads it: a race, and the getter returns a stale token or nil.
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
            queue.async { current = self.cachedToken }
            return current
        }
        set { queue.sync { cachedToken = newValue } }
    }
}

// alternative: the read, the transform and the write spelled out as three statements inside one `queue.sync` block — one block, so nothing can come between them.
import Dispatch

extension TokenStore {
    /// Replaces the token with `transform(token)`, as one step no other change can come between.
    public func update(_ transform: (String?) -> String?) {
        queue.sync {
            let current = cachedToken
            let next = transform(current)
            cachedToken = next
        }
    }
}

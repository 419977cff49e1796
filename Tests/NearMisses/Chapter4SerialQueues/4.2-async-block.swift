// near-miss compile: the whole update in one `queue.async` block — `transform` is a non-escaping parameter, and an `async` block outlives the call, so Swift refuses to let the block capture it (and the caller could not rely on the token being updated when `update` returns).
import Dispatch

extension TokenStore {
    /// Replaces the token with `transform(token)`, as one step no other change can come between.
    public func update(_ transform: (String?) -> String?) {
        queue.async {
            self.cachedToken = transform(self.cachedToken)
        }
    }
}

// near-miss wrong: the read is a `sync` and the write an `async` — still two blocks, so another update's read can run between them, and updates are lost (the queue orders each block, not the pair).
import Dispatch

extension TokenStore {
    /// Replaces the token with `transform(token)`, as one step no other change can come between.
    public func update(_ transform: (String?) -> String?) {
        let current = queue.sync { cachedToken }
        let next = transform(current)
        queue.async { self.cachedToken = next }            // no need to wait for the write
    }
}

// near-miss wrong: the read and the transform in one `sync` block, the write queued from inside it with `async` — the write becomes a block of its own at the back of the queue, so a block another thread asked for during the transform (a get, a set, another update) runs between the read and the write.
import Dispatch

extension TokenStore {
    /// Replaces the token with `transform(token)`, as one step no other change can come between.
    public func update(_ transform: (String?) -> String?) {
        queue.sync {
            let next = transform(cachedToken)
            queue.async { self.cachedToken = next }   // the write need not hold the caller
        }
    }
}

// near-miss crash: the starter's two `queue.sync` calls wrapped in one more `queue.sync` — the inner ones now run on the queue they target, so the first of them waits for itself and libdispatch traps.
import Dispatch

extension TokenStore {
    /// Replaces the token with `transform(token)`, as one step no other change can come between.
    public func update(_ transform: (String?) -> String?) {
        queue.sync {                                       // one block around the whole update
            let current = queue.sync { cachedToken }
            let next = transform(current)
            queue.sync { cachedToken = next }
        }
    }
}

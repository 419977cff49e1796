// near-miss wrong: read, transform outside the queue, then write only if the token is unchanged, else retry — no update is lost, but transform runs off the queue, two transforms run at once, and one update may call transform several times.
import Dispatch

extension TokenStore {
    /// Replaces the token with `transform(token)`, as one step no other change can come between.
    public func update(_ transform: (String?) -> String?) {
        while true {
            let current = queue.sync { cachedToken }
            let next = transform(current)
            let stored = queue.sync { () -> Bool in
                guard cachedToken == current else { return false }   // someone else got in: try again
                cachedToken = next
                return true
            }
            if stored { return }
        }
    }
}

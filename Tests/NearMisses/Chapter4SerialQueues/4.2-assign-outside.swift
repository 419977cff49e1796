// near-miss race: transform runs inside `queue.sync`, but its result is stored after the block returns — that write of `cachedToken` is off the queue, races with other updates' reads and writes, and loses updates.
import Dispatch

extension TokenStore {
    /// Replaces the token with `transform(token)`, as one step no other change can come between.
    public func update(_ transform: (String?) -> String?) {
        let next = queue.sync { transform(cachedToken) }
        cachedToken = next
    }
}

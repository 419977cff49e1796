import Dispatch

extension TokenStore {
    /// Replaces the token with `transform(token)`, as one step no other change can come between.
    ///
    /// `transform` runs on the store's queue, so it must not use this store (its `token`, or
    /// another `update`): that would be a `sync` onto the queue it is already running on.
    public func update(_ transform: (String?) -> String?) {
        // Read, transform and write in *one* block: between a read and a write made in two
        // separate blocks, another thread's block can run, and its change would be overwritten.
        queue.sync { cachedToken = transform(cachedToken) }
    }
}

import Dispatch

// Exercise 4.2 — change the token in one step.
//
// Contract:
// - `update` is synchronous: it calls `transform` exactly once, before it returns, with the
//   current token (`nil` when there is none); when it returns, the store holds what `transform`
//   returned (`nil` clears the token).
// - `transform` runs on `queue` — the queue 4.1's `token` uses — and no other update, get or set
//   comes between the read of the current token and the write of the new one.
// - From many threads at once no update is lost (4 threads × 1 000 "add one" → 4 000), and no
//   two `transform`s of one store run at the same time.
// - `transform` must not use the store; it may use another store (its `token`, or its `update`).
//   Nothing traps or hangs.

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

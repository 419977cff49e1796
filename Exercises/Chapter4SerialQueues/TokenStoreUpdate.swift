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
//
// Each access below is on the queue, so the Thread Sanitizer finds nothing wrong here. Run the
// tests anyway. (Written out with `cachedToken` so that this exercise does not depend on 4.1:
// it is exactly what `token = transform(token)` does once the getter and the setter of 4.1 each
// use the queue.)

extension TokenStore {
    /// Replaces the token with `transform(token)`, as one step no other change can come between.
    public func update(_ transform: (String?) -> String?) {
        let current = queue.sync { cachedToken }   // the getter
        let next = transform(current)
        queue.sync { cachedToken = next }           // the setter
    }
}

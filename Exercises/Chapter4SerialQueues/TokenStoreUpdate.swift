import Dispatch

// Exercise 4.2 — change the token in one step.
//
// `update(_:)` hands the current token to `transform` and stores what `transform` returns. Two
// threads that each call `update` must both have their change kept: if both add one to a
// counter, the counter goes up by two.
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

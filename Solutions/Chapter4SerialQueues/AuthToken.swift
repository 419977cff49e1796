import Dispatch

// Exercise 4.5 — the recipe's token, as printed.
//
// Contract:
// - `token` may be read and set from any thread, at any time, by several threads at once.
// - A new `AuthToken(token:)` reads back the token it was made with.
// - A read returns exactly a value some set stored (or the first token), never a mix.
// - A read that starts after a set has returned sees that value (or a later one), on any thread.
//   A set replaces the token with the value being set.
// - Any way of guarding `cachedToken` that keeps these clauses passes: the tests look only at what
//   `token` does, and the Thread Sanitizer at every access to `cachedToken`.
// - Neither the getter nor the setter may be called from a block running on `queue`: both `sync`
//   onto it, and the preconditions below stop the program there at once.

/// An authentication token that any thread may read or replace.
///
/// The recipe's design, compiling and right: one serial queue, and every access to `cachedToken`
/// a block on it.
public final class AuthToken {
    /// The serial queue that guards `cachedToken`.
    private let queue = DispatchQueue(label: "workbook.auth-token")
    /// The token itself. Read and write it only on `queue`.
    private var cachedToken: String

    public init(token: String) {
        cachedToken = token
    }

    /// The current token.
    public var token: String {
        get {
            dispatchPrecondition(condition: .notOnQueue(queue))
            // With two statements the getter has no implicit return: it returns what `sync`
            // returns, which is what the closure produced. (A `return` inside the closure leaves
            // the closure only.)
            return queue.sync { cachedToken }
        }
        set {
            dispatchPrecondition(condition: .notOnQueue(queue))
            // `newValue`, the value being set. `token` here would be the getter: a `sync` onto the
            // queue this block holds, and a trap.
            queue.sync { cachedToken = newValue }
        }
    }
}

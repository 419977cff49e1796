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
//
// This is the third recipe of the article behind this chapter, put into today's Swift line for
// line — with one line added at the top of the getter and of the setter: 4.4's advice, a
// precondition that says "not from inside my own queue". With that line, this file does not
// compile. `swift run workbook check 4.5` shows the compiler's error; chapter 4's other exercises
// are graded without this file meanwhile. README.md, section 4.5, explains where the getter's
// `return` goes. When it compiles, run the tests: the setter has a problem of its own.

/// An authentication token that any thread may read or replace.
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
            queue.sync {
                return cachedToken
            }
        }
        set {
            dispatchPrecondition(condition: .notOnQueue(queue))
            queue.sync {
                cachedToken = token
            }
        }
    }
}

import Dispatch

// Exercise 4.1 — a token store guarded by a serial queue.
//
// Any thread may read or replace `token` at any time. Make every read and every write of
// `cachedToken` happen on `queue`, so that they happen one at a time.
//
// This is the article's recipe as it would have to look to compile at all — minus the queue:
// the queue is declared, but nothing uses it yet. Run `swift run workbook check 4.1` and read
// what the Thread Sanitizer says. README.md next to this file explains why the article's getter
// does not compile, and what the getter has to return instead.

/// Holds an authentication token that any thread may read or replace.
public final class TokenStore {
    /// The serial queue that guards `cachedToken`. (Internal, not private: `update(_:)` in
    /// TokenStoreUpdate.swift uses it too.)
    let queue = DispatchQueue(label: "workbook.token-store")
    /// The token itself. Read and write it only on `queue`.
    var cachedToken: String?

    public init() {}

    /// The current token, or `nil` when there is none.
    public var token: String? {
        get { cachedToken }
        set { cachedToken = newValue }
    }
}

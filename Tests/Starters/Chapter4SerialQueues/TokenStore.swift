import Dispatch

// Exercise 4.1 — a token store guarded by a serial queue.
//
// Contract:
// - `token` may be read and set from any thread, at any time, by several threads at once.
// - A read or a set made while another block is running on `queue` waits for that block (4.2's
//   `update` relies on it).
// - A read returns `nil` for a new store, otherwise exactly a value some set stored.
// - A read that starts after a set has returned sees that value (or a later one), on any thread.
//   `token = nil` clears the token, and waits for a running block like every other set.
//
// This is the article's recipe — minus the queue: the queue is declared, but nothing uses it
// yet. Run `swift run workbook check 4.1` and read what the Thread Sanitizer says. (The recipe's
// own getter and setter, as printed, come back in 4.5.)

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

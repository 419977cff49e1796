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

/// Holds an authentication token that any thread may read or replace.
///
/// A private serial queue runs one block at a time, so every access to `cachedToken` made inside
/// `queue.sync` happens alone, and each one sees the last write before it.
public final class TokenStore {
    /// The serial queue that guards `cachedToken`. (Internal, not private: `update(_:)` in
    /// TokenStoreUpdate.swift uses it too.)
    let queue = DispatchQueue(label: "workbook.token-store")
    /// The token itself. Read and write it only on `queue`.
    var cachedToken: String?

    public init() {}

    /// The current token, or `nil` when there is none.
    public var token: String? {
        // `sync` returns what its closure returns: the getter returns *that*. (A `return` inside
        // the closure only leaves the closure.)
        get { queue.sync { cachedToken } }
        set { queue.sync { cachedToken = newValue } }
    }
}

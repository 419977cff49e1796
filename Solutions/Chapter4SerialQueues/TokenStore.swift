import Dispatch

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

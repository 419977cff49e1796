// near-miss wrong: the getter reads through the queue (`queue.sync { cachedToken }`), but the setter guards its write with an NSLock of its own — the sets are ordered among themselves, yet not against the reads on `queue`, so a set made while another block holds the queue changes the token at once. (The Thread Sanitizer reports nothing: the lock orders the writes, and the value a `sync` block returns is copied where it does not look.)
import Dispatch
import Foundation

/// Holds an authentication token that any thread may read or replace.
public final class TokenStore {
    /// The serial queue that guards `cachedToken`. (Internal, not private: `update(_:)` in
    /// TokenStoreUpdate.swift uses it too.)
    let queue = DispatchQueue(label: "workbook.token-store")
    /// The token itself.
    var cachedToken: String?
    private let lock = NSLock()

    public init() {}

    /// The current token, or `nil` when there is none.
    public var token: String? {
        get { queue.sync { cachedToken } }
        set { lock.withLock { cachedToken = newValue } }
    }
}

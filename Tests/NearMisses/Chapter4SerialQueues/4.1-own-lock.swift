// near-miss wrong: an NSLock of its own instead of `queue` — TokenStore alone is safe, but 4.2's `update` works on `queue`, and a lock the queue knows nothing of does not exclude it: a get or set could slip between update's read and write.
import Dispatch
import Foundation

/// Holds an authentication token that any thread may read or replace.
public final class TokenStore {
    let queue = DispatchQueue(label: "workbook.token-store")
    var cachedToken: String?
    private let lock = NSLock()

    public init() {}

    /// The current token, or `nil` when there is none.
    public var token: String? {
        get { lock.lock(); defer { lock.unlock() }; return cachedToken }
        set { lock.lock(); defer { lock.unlock() }; cachedToken = newValue }
    }
}

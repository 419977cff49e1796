// alternative: an NSLock instead of the serial queue — the getter returns what it read under the lock, the setter stores `newValue` under it.
import Foundation

/// An authentication token that any thread may read or replace.
public final class AuthToken {
    private let lock = NSLock()
    private var cachedToken: String

    public init(token: String) {
        cachedToken = token
    }

    /// The current token.
    public var token: String {
        get { lock.withLock { cachedToken } }
        set { lock.withLock { cachedToken = newValue } }
    }
}

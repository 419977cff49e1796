// near-miss wrong: the getter reads through the queue (`queue.sync { cachedToken }`), but the setter guards its write with an `NSLock` of its own: the sets are ordered among themselves, not against the reads on `queue`. The Thread Sanitizer does not see this pair at -Onone (the String a `sync` block returns is copied where it does not look), so the source rule says it at the setter's line.
import Dispatch
import Foundation

public final class AuthToken {
    /// The serial queue that guards `cachedToken`.
    private let queue = DispatchQueue(label: "workbook.auth-token")
    /// The token itself.
    private var cachedToken: String
    private let lock = NSLock()

    public init(token: String) {
        cachedToken = token
    }

    /// The current token.
    public var token: String {
        get {
            return queue.sync { cachedToken }
        }
        set {
            lock.withLock { cachedToken = newValue }
        }
    }
}

// near-miss compile: an async setter that writes `cachedToken = newValue` without `self.` — an escaping closure must name `self` to use a property, so the file does not compile (and only 4.5 is left out of the build).
import Dispatch

/// An authentication token that any thread may read or replace.
public final class AuthToken {
    private let queue = DispatchQueue(label: "workbook.auth-token")
    private var cachedToken: String

    public init(token: String) {
        cachedToken = token
    }

    /// The current token.
    public var token: String {
        get {
            dispatchPrecondition(condition: .notOnQueue(queue))
            return queue.sync { cachedToken }
        }
        set {
            dispatchPrecondition(condition: .notOnQueue(queue))
            queue.async {
                cachedToken = newValue
            }
        }
    }
}

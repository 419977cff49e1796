// near-miss race: the setter writes `cachedToken` directly, as `newValue` — right value, wrong place: two sets, or a set and a get, touch it with nothing ordering them.
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
            cachedToken = newValue
        }
    }
}

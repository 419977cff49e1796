// near-miss wrong: the token is a `static` property, "there is only one signed-in user" — every access is on the queue, but every AuthToken shares it: making a second AuthToken replaces the first one's token.
import Dispatch

/// An authentication token that any thread may read or replace.
public final class AuthToken {
    private let queue = DispatchQueue(label: "workbook.auth-token")
    private static var cachedToken = ""

    public init(token: String) {
        queue.sync { AuthToken.cachedToken = token }
    }

    /// The current token.
    public var token: String {
        get {
            dispatchPrecondition(condition: .notOnQueue(queue))
            return queue.sync { AuthToken.cachedToken }
        }
        set {
            dispatchPrecondition(condition: .notOnQueue(queue))
            queue.sync { AuthToken.cachedToken = newValue }
        }
    }
}

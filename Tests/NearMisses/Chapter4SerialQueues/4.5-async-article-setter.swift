// near-miss crash: the setter moves the recipe's `cachedToken = token` into `queue.async` — the block still reads `token` on the queue it runs on, and the getter traps there, on a worker thread.
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
                self.cachedToken = self.token
            }
        }
    }
}

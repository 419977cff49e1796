// near-miss crash: the setter queues its write with `queue.async { [unowned self] in … }` — the block can run after the AuthToken's last reference is gone, and reading an `unowned` reference to a released object traps.
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
            queue.async { [unowned self] in cachedToken = newValue }
        }
    }
}

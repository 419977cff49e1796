// alternative: the setter queues its write with `queue.async { [weak self] in … }` — a store released before the block runs simply drops the write, which nobody can read any more; while the store lives, the serial queue runs the write before any later read.
import Dispatch

/// Holds an authentication token that any thread may read or replace.
public final class TokenStore {
    let queue = DispatchQueue(label: "workbook.token-store")
    var cachedToken: String?

    public init() {}

    /// The current token, or `nil` when there is none.
    public var token: String? {
        get { queue.sync { cachedToken } }
        set { queue.async { [weak self] in self?.cachedToken = newValue } }
    }
}

// near-miss hang: updates are made atomic with one NSLock of their own, `static`, instead of the store's queue — they no longer lose each other's changes, but the lock is shared by every store: a transform that updates another store waits for the lock its own update holds, forever. (And 4.1's `token` get and set run on `queue`, which this lock does not exclude, so a set can land between update's read and write.)
import Dispatch
import Foundation

extension TokenStore {
    private static let updateLock = NSLock()

    /// Replaces the token with `transform(token)`, as one step no other change can come between.
    public func update(_ transform: (String?) -> String?) {
        TokenStore.updateLock.lock()
        defer { TokenStore.updateLock.unlock() }
        cachedToken = transform(cachedToken)
    }
}

import Testing
import WorkbookTestSupport

// 2.1's, 2.2's and 2.3's `handedQueues` tests judge their children alike: a caller may hand in a
// concurrent queue or the very queue it runs on, so the answer must neither `sync` onto `queue`
// nor wait on it, nor count on it being serial.

/// ``judgeChild(_:_:ifItCrashed:ifItHung:sourceLocation:)`` for a `handedQueues` child, with the
/// advice the three exercises share, in each one's words:
/// - handIn: how a caller hands the queue over ("hand runAll", "hand in");
/// - bookkeeping: whose bookkeeping must stay off `queue` ("runAll's", "the fetch's");
/// - neverWaits: what must never wait ("runAll must never wait", "load must never wait on it");
/// - keepsSafe: what it must not count on a serial `queue` to keep safe ("state", "list").
func judgeHandedQueueChild(
    _ result: ExitTest.Result?, _ what: String,
    handIn: String, bookkeeping: String, neverWaits: String, keepsSafe: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    judgeChild(
        result, what,
        ifItCrashed: """
            The program stopped. libdispatch traps when a block running on a serial queue calls \
            `sync` on that same queue — and a caller may \(handIn) the very queue it runs on (as code \
            on the main queue hands `.main`). Keep \(bookkeeping) own bookkeeping off `queue`.
            """,
        ifItHung: """
            something waits on the queue it was handed. A caller may hand a concurrent queue, or \
            the queue it is running on: \(neverWaits), and never count on `queue` being serial to \
            keep its \(keepsSafe) safe.
            """,
        sourceLocation: sourceLocation)
}

import Dispatch
import Foundation
import WorkbookTestSupport

// The chapter's dimension helpers (issue 15): every pair of an exercise's operations at the same
// moment, and an object whose last reference goes while work waits on its queue. They run inside an
// exit test's child (`runInChild`) and answer with a sentence for `judgeChild`, or `nil`.

/// For every pair of `operations` (``OperationPair/every(of:)``, each operation with itself too):
/// `prepare(pair)` makes a fresh object and returns the call to make and the check to run after; two
/// gated threads make the pair's first operation and two its second, `iterations` times each, all
/// starting at the same moment. `call(operation, thread, iteration)` returns a problem or `nil`;
/// threads 0 and 2 make the first operation, 1 and 3 the second. Returns the first problem, naming
/// the pair.
func runEveryPairAtOnce(
    _ operations: [String], iterations: Int = 150, seconds: Double = 3,
    _ prepare: (OperationPair) -> (call: @Sendable (String, Int, Int) -> String?, check: () -> String?)
) -> String? {
    for pair in OperationPair.every(of: operations) {
        let (call, check) = prepare(pair)
        let problems = Tally<String>()
        guard gatedThreads(threads: 4, iterations: iterations, seconds: seconds, { thread, iteration in
            if let problem = call(thread.isMultiple(of: 2) ? pair.first : pair.second, thread, iteration) {
                problems.append(problem)
            }
        }) else {
            return childTimedOut("\(pair.testDescription) at the same moment: the four threads did not finish within \(formatSeconds(seconds)); something they call blocks")
        }
        if let problem = problems.all.first ?? check() {
            return isChildTimeout(problem) ? problem : "\(pair.testDescription) at the same moment: \(problem)"
        }
    }
    return nil
}

/// Holds the only strong reference to an object under test, so that the test can let it go from
/// the thread that used it last. Set before other threads start; cleared by one of them.
final class LastReference<Object: AnyObject>: @unchecked Sendable {
    private let lock = NSLock()
    private var object: Object?

    init(_ object: Object) { self.object = object }

    /// The object, or `nil` once it has been let go.
    var value: Object? { lock.withLock { object } }

    /// Lets the object go: after this, only what the object's own work holds keeps it alive.
    func letGo() { lock.withLock { object = nil } }
}

/// The lifetime dimension: an object is used by `use` on another thread while the test holds its
/// queue, and the only reference to it is let go as soon as `use` returns — so the object goes while
/// its work may still be waiting on its queue. Then the queue is freed, and everything queued there
/// must run without trapping (a block that captured `unowned self` traps here), and `use` must have
/// returned. `what` names the call, as the failure says it. Returns a sentence, or `nil`.
func releasedWhileWorkWaits<Object: AnyObject>(
    _ make: () -> Object, _ what: String, _ use: @escaping @Sendable (Object) -> Void
) -> String? {
    // A fresh object let go at once, and one let go after a use, must not trap either.
    _ = make()
    do { let used = make(); use(used) }

    let reference = LastReference(make())
    // A design without a stored `queue` cannot be held this way; the other tests still judge it.
    let queue: DispatchQueue
    do {
        guard let object = reference.value, let found = queueProperty(of: object) else { return nil }
        queue = found
    }
    let release = Signal(), returned = Signal()
    guard occupy(queue, until: release) else { return "a block the test put on the object's queue did not start within 2 s" }
    startThread {
        if let object = reference.value { use(object) }
        reference.letGo()
        returned.fire()
    }
    // A call that waits for the queue is still waiting; one that queued a block and returned has let
    // the object go, and the block it queued is all that is left of it.
    let returnedWhileHeld = returned.happens(within: 0.2)
    release.fire()
    guard returnedWhileHeld || returned.happens(within: 2) else { return childTimedOut("\(what) did not return within 2 s after the object's queue became free") }
    // Whatever is still queued runs now, after the object is gone.
    guard finishes(within: 2, { queue.sync {} }) else {
        return childTimedOut("the blocks left on the object's queue did not finish within 2 s after the object was released")
    }
    return nil
}

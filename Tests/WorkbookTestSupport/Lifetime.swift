import Dispatch
import Foundation

// The lifetime dimension, shared by the chapters whose types keep a queue (4 and 5): find the
// object's queue, hold it from a thread of the test, and let the object go while its work waits.

/// The `DispatchQueue` `object` guards its state with: its stored property called `queue`, or, when
/// the answer named it otherwise, its one stored property of that type.
///
/// The exercises hand their types a queue (`let queue` / `private let queue`); a few contract clauses
/// are about that queue — "a read made while another block runs on `queue` waits for it", "reads run
/// side by side on `queue`" — and only a block the test itself puts on the queue can observe them.
/// So they are looked for by type, not only by the starter's name: a renamed queue is still held.
/// `nil` when there is no queue, or more than one to choose from. Read it before any other thread
/// touches the object.
package func queueProperty(of object: AnyObject) -> DispatchQueue? {
    let children = Mirror(reflecting: object).children
    if let named = children.first(where: { $0.label == "queue" })?.value as? DispatchQueue { return named }
    let queues = children.compactMap { $0.value as? DispatchQueue }
    return queues.count == 1 ? queues[0] : nil
}

/// Occupies `queue` from a thread of the test: a plain `queue.sync` block that stays until
/// `release` fires (at most `seconds`). Returns `false` if the block did not start within 2 s.
package func occupy(_ queue: DispatchQueue, until release: Signal, seconds: Double = 3) -> Bool {
    let holding = Signal()
    startThread {
        queue.sync {
            holding.fire()
            _ = release.happens(within: seconds)
        }
    }
    return holding.happens(within: 2)
}

/// Holds the only strong reference to an object under test, so that the test can let it go from
/// the thread that used it last. Set before other threads start; cleared by one of them.
package final class LastReference<Object: AnyObject>: @unchecked Sendable {
    private let lock = NSLock()
    private var object: Object?

    package init(_ object: Object) { self.object = object }

    /// Holding nothing yet: ``set(_:)`` gives it its object.
    package init() {}

    /// Makes `object` the one held.
    package func set(_ object: Object) { lock.withLock { self.object = object } }

    /// The object, or `nil` once it has been let go.
    package var value: Object? { lock.withLock { object } }

    /// Lets the object go: after this, only what the object's own work holds keeps it alive.
    package func letGo() { lock.withLock { object = nil } }
}

/// The lifetime dimension: an object is used by `use` on another thread while the test holds its
/// queue, and the only reference to it is let go as soon as `use` returns — so the object goes while
/// its work may still be waiting on its queue. Then the queue is freed, and everything queued there
/// must run without trapping (a block that captured `unowned self` traps here), and `use` must have
/// returned. `what` names the call, as the failure says it. Returns a sentence, or `nil`.
package func releasedWhileWorkWaits<Object: AnyObject>(
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

import Chapter2Groups
import Dispatch
import Foundation
import WorkbookTestSupport

// Chapter 2's fakes: services and sources that answer on threads the test chooses, and a way to
// pause a queue so that "later" becomes something the test decides instead of the scheduler.

// MARK: - Pausing queues

/// Pauses serial queues: each gets a block that waits until ``release()`` is called.
///
/// Blocks submitted to a paused queue after the pause run only after the release, in order. That
/// makes "the queue has not got round to it yet" happen every time, not once in a while. The wait
/// ends on its own after `seconds`, so code that blocks on a paused queue is slowed down, never
/// hung.
final class QueueHold: Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let held: Int

    init(_ queues: [DispatchQueue], seconds: Double = 1) {
        held = queues.count
        for queue in queues {
            queue.async { [gate] in _ = gate.wait(timeout: .now() + seconds) }
        }
    }

    /// Pauses every `DispatchQueue` that `object` keeps in a stored property.
    convenience init(queuesOf object: AnyObject, seconds: Double = 1) {
        let queues = Mirror(reflecting: object).children.compactMap { $0.value as? DispatchQueue }
        self.init(queues, seconds: seconds)
    }

    /// Lets the paused queues go on.
    func release() {
        for _ in 0..<held { gate.signal() }
    }
}

// MARK: - Chapter 2.2: services

/// A friend service that answers with `names`, before it returns or later from a new thread.
struct FakeFriendService: FriendService {
    let names: [String]
    let style: CallbackStyle

    func getMyFriends(_ completion: @escaping ([String]) -> Void) {
        let names = self.names
        fakeWork(style)({ completion(names) })
    }
}

/// A steps service that answers with `count`, before it returns or later from a new thread.
struct FakeStepsService: StepsService {
    let count: Int
    let style: CallbackStyle

    func getUserSteps(_ completion: @escaping (Int) -> Void) {
        let count = self.count
        fakeWork(style)({ completion(count) })
    }
}

/// A friend service that keeps every completion handler until the test answers it.
final class HeldFriendService: FriendService, @unchecked Sendable {
    let requests = Tally<([String]) -> Void>()
    func getMyFriends(_ completion: @escaping ([String]) -> Void) { requests.append(completion) }
}

/// A steps service that keeps every completion handler until the test answers it.
final class HeldStepsService: StepsService, @unchecked Sendable {
    let requests = Tally<(Int) -> Void>()
    func getUserSteps(_ completion: @escaping (Int) -> Void) { requests.append(completion) }
}

// MARK: - Chapter 2.3: sources

/// A URL the tests can recognise: `video(2, 17)` is the 17th video of source 2.
func video(_ source: Int, _ index: Int) -> URL {
    URL(fileURLWithPath: "/videos/source-\(source)/clip-\(index).mov")
}

struct SourceFailed: Error {}

/// A source that reports `urls` and then `done(nil)` — or, with `fails`, only `done(error)`.
///
/// `.synchronous` reports before `enumerate` returns; `.asynchronous` from a new thread.
/// `finished` fires once `done` has returned.
struct ListSource: AssetSource {
    var urls: [URL] = []
    var fails = false
    let style: CallbackStyle
    let finished = Signal()

    func enumerate(_ found: @escaping (URL) -> Void, done: @escaping (Error?) -> Void) {
        let report = Unchecked { [urls, fails, finished] in
            if fails {
                done(SourceFailed())
            } else {
                for url in urls { found(url) }
                done(nil)
            }
            finished.fire()
        }
        switch style {
        case .synchronous: report.value()
        case .asynchronous: startThread { report.value() }
        }
    }
}

/// A source that keeps its `found` and `done` handlers until the test calls them.
final class HeldSource: AssetSource, @unchecked Sendable {
    let requests = Tally<(found: (URL) -> Void, done: (Error?) -> Void)>()
    func enumerate(_ found: @escaping (URL) -> Void, done: @escaping (Error?) -> Void) {
        requests.append((found, done))
    }
}

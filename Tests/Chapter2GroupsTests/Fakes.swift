import Chapter2Groups
import Dispatch
import Foundation
import WorkbookTestSupport

// Chapter 2's fakes: services and sources that answer on threads the test chooses, and a way to
// pause a queue so that "later" becomes something the test decides instead of the scheduler.

// MARK: - Pausing queues

extension QueueHold {
    /// Pauses (``QueueHold``) every `DispatchQueue` that `object` keeps in a stored property, for at
    /// most `seconds`.
    convenience init(queuesOf object: AnyObject, seconds: Double = 1) {
        let queues = Mirror(reflecting: object).children.compactMap { $0.value as? DispatchQueue }
        self.init(queues, seconds: seconds)
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

/// `count` calls of fetchApplicationContext on services that keep their answers (2.2's tests that
/// answer many fetches from two threads): what the calls delivered, and whether on their queue.
final class HeldFetches: Sendable {
    let count: Int
    let friends = HeldFriendService(), steps = HeldStepsService()
    let delivered = Tally<(context: ApplicationContext, onQueue: Bool)>(), arrived = Signal()

    init(_ count: Int) { self.count = count }

    /// Makes the calls, each to deliver on `queue`; `isCurrent` tells whether a delivery runs there.
    func make(queue: DispatchQueue, isCurrent: @escaping @Sendable () -> Bool) {
        for _ in 0..<count {
            fetchApplicationContext(friends: friends, steps: steps, queue: queue) { [delivered, arrived] context in
                delivered.append((context, isCurrent()))
                arrived.fire()
            }
        }
    }

    /// What the services were asked, read once.
    struct Asked: @unchecked Sendable {
        /// The completions each service was handed, in the order of the calls: answer i answers fetch i.
        let friends: [([String]) -> Void], steps: [(Int) -> Void]
        /// "500 fetches asked for friends 499 times and for steps 500 times".
        let counted: String
        /// Whether every fetch asked each service once.
        let onceEach: Bool
    }

    func asked() -> Asked {
        let friends = friends.requests.all, steps = steps.requests.all
        return Asked(friends: friends, steps: steps,
                     counted: "\(count) fetches asked for friends \(friends.count) times and for steps \(steps.count) times",
                     onceEach: friends.count == count && steps.count == count)
    }

    /// The context each fetch must deliver once answered as `Asked` is: fetch i's friends
    /// ["friend i"], its steps i.
    var expected: [ApplicationContext] { (0..<count).map { ApplicationContext(friends: ["friend \($0)"], steps: $0) } }
    /// The contexts delivered, in the order of their steps.
    var contexts: [ApplicationContext] { delivered.all.map(\.context).sorted { $0.steps < $1.steps } }
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

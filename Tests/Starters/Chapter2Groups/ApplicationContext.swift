import Dispatch

// Exercise 2.2 — the watch app's join: two requests at once, one combined answer.
// The contract:
// - Both requests start before the call returns; the call waits for no answer.
// - Each service answers once, on any thread: before its call returns, or later on its own thread.
// - `completion` runs exactly once, on `queue`, after both answers (either may come first).
// - Answers may come on two threads at once, many fetches may run at once: no data race.
//
// The group already makes the delivery wait for both answers. Run the suite and read what the
// Thread Sanitizer says about how the answers are stored.

/// The server API that knows who your friends are.
public protocol FriendService {
    /// Calls `completion` once with the names of your friends, on any thread.
    func getMyFriends(_ completion: @escaping ([String]) -> Void)
}

/// The server API that counts your steps.
public protocol StepsService {
    /// Calls `completion` once with today's step count, on any thread.
    func getUserSteps(_ completion: @escaping (Int) -> Void)
}

/// What the watch shows: both answers, together.
public struct ApplicationContext: Equatable {
    public var friends: [String]
    public var steps: Int

    public init(friends: [String], steps: Int) {
        self.friends = friends
        self.steps = steps
    }
}

/// Asks `friends` and `steps` at the same time and calls `completion` once, on `queue`, with
/// both answers.
public func fetchApplicationContext(
    friends: FriendService,
    steps: StepsService,
    queue: DispatchQueue,
    completion: @escaping (ApplicationContext) -> Void
) {
    let group = DispatchGroup()
    // The answers are gathered the way WatchConnectivity wants an application context: as a
    // dictionary, with a default for each key. The group makes the delivery wait until both
    // answers are in.
    var received: [String: Any] = ["friends": [String](), "steps": 0]

    group.enter()
    friends.getMyFriends { names in
        received["friends"] = names
        group.leave()
    }

    group.enter()
    steps.getUserSteps { count in
        received["steps"] = count
        group.leave()
    }

    group.notify(queue: queue) {
        let context = ApplicationContext(
            friends: received["friends"] as? [String] ?? [],
            steps: received["steps"] as? Int ?? 0)
        completion(context)
    }
}

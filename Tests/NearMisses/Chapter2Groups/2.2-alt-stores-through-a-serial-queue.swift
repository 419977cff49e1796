// alternative: every store goes through one private serial queue, leave() is called from there, and the notify block reads on that same queue before hopping to queue.
import Dispatch

public protocol FriendService {
    func getMyFriends(_ completion: @escaping ([String]) -> Void)
}

public protocol StepsService {
    func getUserSteps(_ completion: @escaping (Int) -> Void)
}

public struct ApplicationContext: Equatable {
    public var friends: [String]
    public var steps: Int

    public init(friends: [String], steps: Int) {
        self.friends = friends
        self.steps = steps
    }
}

public func fetchApplicationContext(
    friends: FriendService,
    steps: StepsService,
    queue: DispatchQueue,
    completion: @escaping (ApplicationContext) -> Void
) {
    let group = DispatchGroup()
    let store = DispatchQueue(label: "application-context.store")
    var received: [String: Any] = ["friends": [String](), "steps": 0]

    group.enter()
    friends.getMyFriends { names in
        store.async {
            received["friends"] = names
            group.leave()
        }
    }

    group.enter()
    steps.getUserSteps { count in
        store.async {
            received["steps"] = count
            group.leave()
        }
    }

    group.notify(queue: store) {
        let context = ApplicationContext(
            friends: received["friends"] as? [String] ?? [],
            steps: received["steps"] as? Int ?? 0)
        queue.async { completion(context) }
    }
}

// alternative: the answers are kept in one dictionary guarded by NSLock, and the notify block reads it under the same lock.
import Foundation
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
    let lock = NSLock()
    var received: [String: Any] = ["friends": [String](), "steps": 0]

    group.enter()
    friends.getMyFriends { names in
        lock.lock()
        received["friends"] = names
        lock.unlock()
        group.leave()
    }

    group.enter()
    steps.getUserSteps { count in
        lock.lock()
        received["steps"] = count
        lock.unlock()
        group.leave()
    }

    group.notify(queue: queue) {
        lock.lock()
        let context = ApplicationContext(
            friends: received["friends"] as? [String] ?? [],
            steps: received["steps"] as? Int ?? 0)
        lock.unlock()
        completion(context)
    }
}

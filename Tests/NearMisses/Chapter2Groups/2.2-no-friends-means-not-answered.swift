// near-miss hang: without a group, each answer is stored under a lock and the second one delivers; but "the friends have answered" is read as "the friends list is not empty", so a fetch whose friends service answers first, with no friends, never delivers.
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
    let lock = NSLock()
    var friendNames: [String] = []
    var stepCount: Int?

    friends.getMyFriends { names in
        lock.lock()
        friendNames = names
        let context = stepCount.map { ApplicationContext(friends: names, steps: $0) }
        lock.unlock()
        // The steps are in already: this answer is the second one.
        if let context { queue.async { completion(context) } }
    }

    steps.getUserSteps { count in
        lock.lock()
        stepCount = count
        let context = friendNames.isEmpty ? nil : ApplicationContext(friends: friendNames, steps: count)
        lock.unlock()
        // The friends are in already: this answer is the second one.
        if let context { queue.async { completion(context) } }
    }
}

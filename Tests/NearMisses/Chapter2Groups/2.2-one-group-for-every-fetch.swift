// near-miss hang: one group, kept in a global, counts the requests of every fetch, so a fetch whose two answers are in still waits for the other fetches' answers.
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

private let group = DispatchGroup()

public func fetchApplicationContext(
    friends: FriendService,
    steps: StepsService,
    queue: DispatchQueue,
    completion: @escaping (ApplicationContext) -> Void
) {
    var friendNames: [String] = []
    var stepCount = 0

    group.enter()
    friends.getMyFriends { names in
        friendNames = names
        group.leave()
    }
    group.enter()
    steps.getUserSteps { count in
        stepCount = count
        group.leave()
    }
    group.notify(queue: queue) {
        completion(ApplicationContext(friends: friendNames, steps: stepCount))
    }
}

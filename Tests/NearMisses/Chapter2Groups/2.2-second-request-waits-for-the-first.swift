// near-miss wrong: the steps are requested only once the friends have answered, so the two requests run one after the other instead of at the same time.
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
    // One request after the other: no two answers can ever overlap.
    friends.getMyFriends { names in
        steps.getUserSteps { count in
            let context = ApplicationContext(friends: names, steps: count)
            queue.async { completion(context) }
        }
    }
}

// near-miss hang: group.wait() makes fetchApplicationContext block its caller until both services have answered, instead of returning at once and delivering later.
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

    // Both answers are in once this returns.
    group.wait()
    let context = ApplicationContext(friends: friendNames, steps: stepCount)
    queue.async { completion(context) }
}

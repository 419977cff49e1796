// near-miss race: notify is registered before the requests enter the group, so it fires at once and reads the answers while the callbacks are still writing them — a data race, and a context without the answers.
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

    // Decide first what happens once both answers are in.
    group.notify(queue: queue) {
        completion(ApplicationContext(friends: friendNames, steps: stepCount))
    }

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
}

// near-miss race: both callbacks change the shared answer counter without any lock, so two answers arriving on two threads race on it (and the context can be delivered twice or never).
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
    var friendNames: [String] = []
    var stepCount = 0
    var answers = 0

    // Whoever brings the second answer delivers.
    func deliverIfComplete() {
        answers += 1
        if answers == 2 {
            let context = ApplicationContext(friends: friendNames, steps: stepCount)
            queue.async { completion(context) }
        }
    }

    friends.getMyFriends { names in
        friendNames = names
        deliverIfComplete()
    }
    steps.getUserSteps { count in
        stepCount = count
        deliverIfComplete()
    }
}

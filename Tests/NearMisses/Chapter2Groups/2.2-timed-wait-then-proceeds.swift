// near-miss wrong: a helper thread waits for the group with a 1 s timeout, only prints when it times out, and delivers anyway, so an answer slower than a second is missing from the context.
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

    DispatchQueue.global().async {
        if group.wait(timeout: .now() + 1) == .timedOut {
            print("fetchApplicationContext: a service is slow to answer")
        }
        queue.async { completion(ApplicationContext(friends: friendNames, steps: stepCount)) }
    }
}

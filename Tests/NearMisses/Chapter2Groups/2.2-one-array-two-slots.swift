// near-miss race: each callback stores into its own slot of one shared array, but storing through a subscript modifies the whole array variable, so two answers on two threads race on it.
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
    // Slot 0 for the friends, slot 1 for the steps: no slot is written twice.
    var answers: [Any] = [[String](), 0]

    group.enter()
    friends.getMyFriends { names in
        answers[0] = names
        group.leave()
    }

    group.enter()
    steps.getUserSteps { count in
        answers[1] = count
        group.leave()
    }

    group.notify(queue: queue) {
        completion(ApplicationContext(friends: answers[0] as? [String] ?? [], steps: answers[1] as? Int ?? 0))
    }
}

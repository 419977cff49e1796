// near-miss race: the answers are stored by blocks on a private serial queue, but leave() is called before those blocks run and the notify block reads the answers off that queue, so a read can meet a store.
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
    var friendNames: [String] = []
    var stepCount = 0

    group.enter()
    friends.getMyFriends { names in
        store.async { friendNames = names }
        group.leave()
    }

    group.enter()
    steps.getUserSteps { count in
        store.async { stepCount = count }
        group.leave()
    }

    group.notify(queue: queue) {
        completion(ApplicationContext(friends: friendNames, steps: stepCount))
    }
}

// near-miss race: an Atomic<Int> with .relaxed ordering counts the answers, and the callback that brings the count to 2 delivers; a relaxed add orders nothing else, so that callback reads the other answer with nothing ordering it after the other callback's write.
import Synchronization
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

private final class AnswerCount: Sendable {
    let value = Atomic<Int>(0)
    /// `true` for the second answer.
    func add() -> Bool { value.add(1, ordering: .relaxed).newValue == 2 }
}

public func fetchApplicationContext(
    friends: FriendService,
    steps: StepsService,
    queue: DispatchQueue,
    completion: @escaping (ApplicationContext) -> Void
) {
    var friendNames: [String] = []
    var stepCount = 0
    let answers = AnswerCount()

    friends.getMyFriends { names in
        friendNames = names
        if answers.add() {
            let context = ApplicationContext(friends: friendNames, steps: stepCount)
            queue.async { completion(context) }
        }
    }
    steps.getUserSteps { count in
        stepCount = count
        if answers.add() {
            let context = ApplicationContext(friends: friendNames, steps: stepCount)
            queue.async { completion(context) }
        }
    }
}

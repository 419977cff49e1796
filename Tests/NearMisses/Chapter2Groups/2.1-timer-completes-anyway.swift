// near-miss wrong: The group is right, and `notify` calls the completion once every callback has come back — but a timer set with `asyncAfter` calls it anyway after ten seconds if that has not happened yet: a callback slower than that finds the completion already called. A timer gives up just like a timed wait.
import Dispatch
import Foundation

public typealias Block = () -> Void
public typealias FunctionWithCallback = (@escaping Block) -> Void

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    let finished = NSLock()
    var completed = false
    func completeOnce() {
        let first = finished.withLock { () -> Bool in
            defer { completed = true }
            return !completed
        }
        if first { completion() }
    }
    for function in functions {
        group.enter()
        queue.async {
            function { group.leave() }
        }
    }
    group.notify(queue: queue) { completeOnce() }
    queue.asyncAfter(deadline: .now() + 10) { completeOnce() }
}

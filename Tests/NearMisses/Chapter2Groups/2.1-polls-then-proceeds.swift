// near-miss wrong: A worker polls the group a hundred times, twenty milliseconds apart, and calls the completion when the group is empty — or when the hundred tries are used up: callbacks slower than two seconds find the completion already called. A poll tried a fixed number of times gives up just like a timed wait.
import Dispatch
import Foundation

public typealias Block = () -> Void
public typealias FunctionWithCallback = (@escaping Block) -> Void

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    for function in functions {
        group.enter()
        queue.async {
            function { group.leave() }
        }
    }
    DispatchQueue.global().async {
        for _ in 0..<100 {
            if group.wait(timeout: .now()) == .success { break }
            usleep(20_000)
        }
        queue.async(execute: completion)
    }
}

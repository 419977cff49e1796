// near-miss race: a countdown kept on a private serial queue, but each callback lowers it outside that queue and only reads it back with `counter.sync { remaining }` — callbacks on two threads write `remaining` at the same time, with nothing ordering the two writes.
import Dispatch

public typealias Block = () -> Void
public typealias FunctionWithCallback = (@escaping Block) -> Void

public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    guard !functions.isEmpty else {
        queue.async(execute: completion)
        return
    }
    let counter = DispatchQueue(label: "workbook.run-all.counter")
    var remaining = functions.count
    for function in functions {
        queue.async {
            function {
                remaining -= 1
                let left = counter.sync { remaining }
                if left == 0 { queue.async(execute: completion) }
            }
        }
    }
}

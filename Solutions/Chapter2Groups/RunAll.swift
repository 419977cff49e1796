import Dispatch

/// A block with no arguments.
public typealias Block = () -> Void
/// An asynchronous function that calls its argument back when it is done.
public typealias FunctionWithCallback = (@escaping Block) -> Void

/// Starts every function in `functions` on `queue`, and calls `completion` on `queue` once all of
/// them have called back.
///
/// An empty list has nothing to wait for, so `completion` is scheduled at once.
public func runAll(_ functions: [FunctionWithCallback], queue: DispatchQueue, completion: @escaping Block) {
    let group = DispatchGroup()
    for function in functions {
        // Count the work here, on the caller's thread, before it is handed to the queue. By the
        // time `notify` looks at the group below, every function is already counted — whenever
        // the queue gets round to starting it.
        group.enter()
        queue.async {
            function { group.leave() }
        }
    }
    group.notify(queue: queue, execute: completion)
}

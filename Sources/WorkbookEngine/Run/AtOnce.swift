import Foundation
import WorkbookCore

/// Runs `body` on every element of `items`, up to `width` at a time, each on a thread of its own, and
/// returns the results in the order of `items`; the first error thrown is rethrown once all are done.
///
/// Threads rather than `DispatchQueue.concurrentPerform`: the work is waiting on child processes,
/// and `concurrentPerform` runs no more at once than there are cores.
func atOnce<Item: Sendable, Result: Sendable>(_ items: [Item], width: Int,
                                               _ body: @escaping @Sendable (Item) throws -> Result) throws -> [Result] {
    guard items.count > 1, width > 1 else { return try items.map(body) }
    let results = Locked<[Int: Swift.Result<Result, any Error>]>([:])
    let next = Locked(0)
    let done = DispatchSemaphore(value: 0)
    let threads = min(width, items.count)
    for _ in 0..<threads {
        Thread {
            while true {
                let index: Int = next.withLock { index in defer { index += 1 }; return index }
                guard index < items.count else { break }
                let result = Swift.Result { try body(items[index]) }
                results.withLock { $0[index] = result }
            }
            done.signal()
        }.start()
    }
    for _ in 0..<threads { done.wait() }
    let all = results.value
    return try items.indices.map { try all[$0]!.get() }
}

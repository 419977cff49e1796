import Foundation
import WorkbookCore
import WorkbookEngine

/// One of N equal parts of a batch, so that N machines (a CI matrix) can share the grading:
/// `--shard K/N` takes every N-th item, starting at the K-th.
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// Which part, from 1.
    let index: Int
    /// How many parts.
    let count: Int

    /// Part `index` (1-based) of `count`; throws a bad-input ``ClassroomError`` unless 1 ≤ index ≤ count.
    package init(index: Int, count: Int) throws {
        guard count >= 1, (1...count).contains(index) else {
            throw ClassroomError.badInput(Says.noShard(index, of: count))
        }
        self.index = index
        self.count = count
    }

    /// Parses "K/N", like "2/4".
    package init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            .map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let index = parts[0], let count = parts[1] else {
            throw ClassroomError.badInput(Says.notAShard(text))
        }
        try self.init(index: index, count: count)
    }

    /// This part of `items`: sorted, then every ``count``-th starting at the ``index``-th, so every
    /// machine picks the same way whatever order it found them in.
    package func select<Item: Comparable>(_ items: [Item]) -> [Item] {
        items.sorted().enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    package var description: String { "\(index)/\(count)" }
}

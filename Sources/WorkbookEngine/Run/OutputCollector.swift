import Foundation
import WorkbookCore

/// Keeps the head and the tail of a stream of bytes, dropping the middle past a cap.
final class OutputCollector: Sendable {
    private struct Kept: Sendable {
        var head: [UInt8] = []
        var tail: [UInt8] = []
        var dropped = 0
    }

    private let cap: Int
    private let kept = Locked(Kept())

    init(cap: Int) { self.cap = cap }

    func append(_ bytes: ArraySlice<UInt8>) {
        let half = cap / 2
        kept.withLock { kept in
            var rest = bytes[...]
            if kept.head.count < half {
                let take = min(half - kept.head.count, rest.count)
                kept.head += rest.prefix(take)
                rest = rest.dropFirst(take)
            }
            kept.tail += rest
            if kept.tail.count > half {
                kept.dropped += kept.tail.count - half
                kept.tail.removeFirst(kept.tail.count - half)
            }
        }
    }

    var text: (String, Bool) {
        kept.withLock { kept in
            if kept.dropped == 0 { return (String(decoding: kept.head + kept.tail, as: UTF8.self), false) }
            let marker = "\n… [\(kept.dropped) bytes of output dropped] …\n"
            return (String(decoding: kept.head, as: UTF8.self) + marker + String(decoding: kept.tail, as: UTF8.self), true)
        }
    }
}

// near-miss race: an Atomic<Int> with .relaxed ordering counts the sources still running, and the last done delivers; a relaxed decrement orders nothing else, so what the other sources did before calling done is not ordered before completion.
import Dispatch
import Foundation
import Synchronization

private final class SourcesLeft: Sendable {
    let value: Atomic<Int>
    init(_ count: Int) { value = Atomic(count) }
    /// `true` for the last source to finish.
    func finish() -> Bool { value.subtract(1, ordering: .relaxed).newValue == 0 }
}

public protocol AssetSource {
    func enumerate(_ found: @escaping (URL) -> Void, done: @escaping (Error?) -> Void)
}

public final class VideoLibrary {
    private let sources: [AssetSource]

    public init(sources: [AssetSource]) {
        self.sources = sources
    }

    public func load(queue: DispatchQueue, completion: @escaping ([URL]) -> Void) {
        guard !sources.isEmpty else {
            queue.async { completion([]) }
            return
        }
        let lock = NSLock()
        var urls: [URL] = []
        let left = SourcesLeft(sources.count)

        for source in sources {
            source.enumerate({ url in
                lock.lock()
                urls.append(url)
                lock.unlock()
            }, done: { _ in
                guard left.finish() else { return }
                queue.async {
                    lock.lock()
                    let found = urls
                    lock.unlock()
                    completion(found)
                }
            })
        }
    }
}

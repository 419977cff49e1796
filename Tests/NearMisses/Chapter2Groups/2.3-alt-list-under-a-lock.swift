// alternative: each load keeps its list behind an NSLock of its own; the notify block copies the list under the lock and calls completion after unlocking.
import Dispatch
import Foundation

public protocol AssetSource {
    func enumerate(_ found: @escaping (URL) -> Void, done: @escaping (Error?) -> Void)
}

public final class VideoLibrary {
    private let sources: [AssetSource]

    public init(sources: [AssetSource]) {
        self.sources = sources
    }

    public func load(queue: DispatchQueue, completion: @escaping ([URL]) -> Void) {
        let group = DispatchGroup()
        let lock = NSLock()
        var urls: [URL] = []

        for source in sources {
            group.enter()
            source.enumerate({ url in
                lock.lock()
                urls.append(url)
                lock.unlock()
            }, done: { _ in
                group.leave()
            })
        }

        group.notify(queue: queue) {
            lock.lock()
            let found = urls
            lock.unlock()
            completion(found)
        }
    }
}

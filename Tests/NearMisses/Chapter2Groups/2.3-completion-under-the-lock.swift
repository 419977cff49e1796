// near-miss hang: completion is called while the library's lock is held, so a load started from completion on another thread blocks on that lock for as long as completion runs.
import Dispatch
import Foundation

public protocol AssetSource {
    func enumerate(_ found: @escaping (URL) -> Void, done: @escaping (Error?) -> Void)
}

public final class VideoLibrary {
    private let sources: [AssetSource]
    private let lock = NSLock()

    public init(sources: [AssetSource]) {
        self.sources = sources
    }

    public func load(queue: DispatchQueue, completion: @escaping ([URL]) -> Void) {
        let group = DispatchGroup()
        var urls: [URL] = []

        for source in sources {
            group.enter()
            source.enumerate({ url in
                self.lock.lock()
                urls.append(url)
                self.lock.unlock()
            }, done: { _ in
                group.leave()
            })
        }

        group.notify(queue: queue) {
            // No append can sneak in while completion reads the list.
            self.lock.lock()
            completion(urls)
            self.lock.unlock()
        }
    }
}

// near-miss wrong: with no sources, completion is called right away on the caller's thread instead of being submitted to queue, so it arrives synchronously and on the wrong thread.
import Dispatch
import Foundation

public protocol AssetSource {
    func enumerate(_ found: @escaping (URL) -> Void, done: @escaping (Error?) -> Void)
}

public final class VideoLibrary {
    private let sources: [AssetSource]
    private let itemsQueue = DispatchQueue(label: "workbook.video-library.items")

    public init(sources: [AssetSource]) {
        self.sources = sources
    }

    public func load(queue: DispatchQueue, completion: @escaping ([URL]) -> Void) {
        // Nothing to load: done.
        guard !sources.isEmpty else {
            completion([])
            return
        }
        let group = DispatchGroup()
        var urls: [URL] = []

        for source in sources {
            group.enter()
            source.enumerate({ url in
                group.enter()
                self.itemsQueue.async {
                    urls.append(url)
                    group.leave()
                }
            }, done: { _ in
                group.leave()
            })
        }

        group.notify(queue: queue) {
            completion(urls)
        }
    }
}

// alternative: found appends with itemsQueue.sync, so every append has finished before found returns, and counting the sources alone is enough.
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
        let group = DispatchGroup()
        var urls: [URL] = []

        for source in sources {
            group.enter()
            source.enumerate({ url in
                self.itemsQueue.sync {
                    urls.append(url)
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

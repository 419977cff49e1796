// alternative: notify runs on the serial items queue, behind every append queued before the last done, takes a copy of the list there and hands it to queue.
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
                self.itemsQueue.async {
                    urls.append(url)
                }
            }, done: { _ in
                group.leave()
            })
        }

        group.notify(queue: itemsQueue) {
            let found = urls
            queue.async { completion(found) }
        }
    }
}

// near-miss wrong: notify runs on the library's private queue, after every append, but completion is then called right there, on the wrong queue, instead of on queue.
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

        // Behind every append on the serial queue: the list is complete here.
        group.notify(queue: itemsQueue) {
            completion(urls)
        }
    }
}

// near-miss race: the list lives in the library and load resets it outside the serial queue, so a load started on another thread writes the list with nothing ordering that write against the previous load's appends — and loads that overlap mix their URLs.
import Dispatch
import Foundation

public protocol AssetSource {
    func enumerate(_ found: @escaping (URL) -> Void, done: @escaping (Error?) -> Void)
}

public final class VideoLibrary {
    private let sources: [AssetSource]
    private let itemsQueue = DispatchQueue(label: "workbook.video-library.items")
    private var urls: [URL] = []

    public init(sources: [AssetSource]) {
        self.sources = sources
    }

    public func load(queue: DispatchQueue, completion: @escaping ([URL]) -> Void) {
        let group = DispatchGroup()
        urls = []  // start afresh

        for source in sources {
            group.enter()
            source.enumerate({ url in
                group.enter()
                self.itemsQueue.async {
                    self.urls.append(url)
                    group.leave()
                }
            }, done: { _ in
                group.leave()
            })
        }

        group.notify(queue: itemsQueue) {
            let found = self.urls
            queue.async { completion(found) }
        }
    }
}

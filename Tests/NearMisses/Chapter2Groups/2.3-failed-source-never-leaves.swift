// near-miss hang: the done handler returns early on an error without calling leave(), so a failing source keeps the group entered and completion never comes.
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
                group.enter()
                self.itemsQueue.async {
                    urls.append(url)
                    group.leave()
                }
            }, done: { error in
                // A failed source has nothing to add.
                guard error == nil else { return }
                group.leave()
            })
        }

        group.notify(queue: queue) {
            completion(urls)
        }
    }
}

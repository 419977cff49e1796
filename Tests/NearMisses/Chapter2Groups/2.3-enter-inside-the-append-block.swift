// near-miss wrong: the append is counted by enter() inside the block on the serial queue, which runs too late, so notify fires while appends are still waiting and the list comes up short.
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
                    // The append is work too: count it.
                    group.enter()
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

// near-miss hang: notify runs on the serial items queue and hands the list to completion with queue.sync, so the library's queue stays blocked while completion runs: a completion that loads again and waits for that load waits for appends that queue cannot run.
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
            // Delivered before the items queue takes anything else: the list handed over is the whole of this load.
            queue.sync { completion(found) }
        }
    }
}

// near-miss crash: a failing source's done handler calls leave() twice (once for the error, once at the end), and a leave() without its enter() stops the program.
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
                if error != nil {
                    group.leave()  // a failed source is finished too
                }
                group.leave()
            })
        }

        group.notify(queue: queue) {
            completion(urls)
        }
    }
}

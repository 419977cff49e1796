import Dispatch
import Foundation

// Exercise 2.3 — the video library.
//
// The contract:
// - load returns at once: it asks every source to enumerate and waits for none of them.
// - A source may report before `enumerate` returns, later from a thread of its own, or from
//   several threads at once; every `found` call comes before its `done`.
// - `completion` runs exactly once, on `queue`, after every source has called `done`, with every
//   URL that every source found (in any order, none twice) — even while the library's own queue
//   is busy.
// - A source that fails reports no URLs and calls `done(error)` once: it still counts as finished.
// - `completion` is always submitted to `queue`, never called from inside load: with no sources it
//   comes at once, on `queue`, with [].
// - Every load has its own list: loads from any threads, overlapping or not, do not mix
//   their URLs.
// - `completion` is called with nothing of the library held (no lock, not on its queue): it may
//   start another load, from any thread, and wait for it.
//
// This is the article's loader, translated: URLs are appended on a private serial queue, so two
// appends never overlap, and a group waits for the sources. And yet the list that reaches
// `completion` can come up short. Stuck? `swift run workbook hint 2.3` asks one question at a time.

/// A place where videos can be found: the media library, the photo library, the app bundle…
public protocol AssetSource {
    /// Reports the URL of each video through `found`, then calls `done` exactly once: with `nil`
    /// after the last URL, or with the error that stopped it (a source that fails reports no URLs).
    ///
    /// `found` and `done` may be called on any thread, even on several threads at once, but every
    /// `found` call happens before `done`.
    func enumerate(_ found: @escaping (URL) -> Void, done: @escaping (Error?) -> Void)
}

/// Collects the videos of several sources.
public final class VideoLibrary {
    private let sources: [AssetSource]
    // Every append happens on this serial queue, one at a time.
    private let itemsQueue = DispatchQueue(label: "workbook.video-library.items")

    public init(sources: [AssetSource]) {
        self.sources = sources
    }

    /// Asks every source for its videos and calls `completion` once, on `queue`, with all of them.
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

        group.notify(queue: queue) {
            completion(urls)
        }
    }
}

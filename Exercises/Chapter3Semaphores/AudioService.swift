import Dispatch

// Exercise 3.2 — one request in flight.
//
// The contract:
// - `fetchAudioList(completion:)` may be called from any thread, any number of times — in an app
//   usually from the main (UI) queue — and returns at once, even while a request is in flight: it
//   never blocks its caller.
// - At most one `api.fetchList` request is in flight: the next one starts only after the previous
//   one has answered, however long that takes.
// - Requests reach the server in the order of the calls (from several threads at once: each
//   thread's in its order).
// - Every caller's `completion` runs exactly once, with the answer to its own request, as soon as
//   that answer arrives — not held back until later requests have been answered.
// - The server may answer before `fetchList` returns, later from any thread, or later on the very
//   queue the caller called from (many APIs deliver their answers on the main queue). A
//   `completion` may call `fetchAudioList` again.
// - The service may be released while requests are in flight or waiting; every caller still gets
//   its answer.
//
// This is the recipe's design, in today's Swift: one free place, taken before the request and
// given back by its answer. The count is right. Run `swift run workbook check 3.2`, read which
// call did not return and on which queue the answer was due, then read README.md next to this file.

/// An episode in the list the server returns.
public struct Podcast: Equatable, Sendable {
    public var title: String

    public init(title: String) {
        self.title = title
    }
}

/// The server call being guarded. It calls back once — on any thread, maybe before it returns,
/// maybe on the queue it was called from.
public protocol AudioAPI {
    func fetchList(_ completion: @escaping ([Podcast]) -> Void)
}

/// Fetches the podcast list, one request at a time.
public final class AudioService {
    private let api: AudioAPI
    /// One free place: one request may be in flight.
    private let requestSlot = DispatchSemaphore(value: 1)

    public init(api: AudioAPI) {
        self.api = api
    }

    /// Asks the server for the list once no other request is in flight, and calls `completion`
    /// with the answer.
    public func fetchAudioList(completion: @escaping ([Podcast]) -> Void) {
        requestSlot.wait()
        api.fetchList { [requestSlot] podcasts in
            requestSlot.signal()
            completion(podcasts)
        }
    }
}

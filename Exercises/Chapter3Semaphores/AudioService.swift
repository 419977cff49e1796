import Dispatch

// Exercise 3.2 — one request in flight.
//
// The contract:
// - `fetchAudioList(completion:)` may be called from any thread, any number of times, and returns
//   at once, even while a request is in flight: the waiting happens on a private queue.
// - At most one `api.fetchList` request is in flight: the next one starts only after the previous
//   one has answered, however long that takes.
// - Requests reach the server in the order of the calls (from several threads at once: each
//   thread's in its order).
// - Every caller's `completion` runs exactly once, with the answer to its own request, as soon as
//   that answer arrives — not held back until later requests have been answered.
// - The server may answer before `fetchList` returns, or later from any thread. A `completion` may
//   call `fetchAudioList` again.
// - The service may be released while a request is in flight; the answer still reaches its caller.
//
// The shape below is right. One number is not. The tests time out instead of hanging; find out
// what they were waiting for, then read README.md next to this file.

/// An episode in the list the server returns.
public struct Podcast: Equatable, Sendable {
    public var title: String

    public init(title: String) {
        self.title = title
    }
}

/// The server call being guarded. It calls back once, on any thread, maybe before it returns.
public protocol AudioAPI {
    func fetchList(_ completion: @escaping ([Podcast]) -> Void)
}

/// Fetches the podcast list, one request at a time.
public final class AudioService {
    private let api: AudioAPI
    private let queue = DispatchQueue(label: "workbook.audio-service")
    private let requestSlot = DispatchSemaphore(value: 0)

    public init(api: AudioAPI) {
        self.api = api
    }

    /// Asks the server for the list once no other request is in flight, and calls `completion`
    /// with the answer. Returns at once.
    public func fetchAudioList(completion: @escaping ([Podcast]) -> Void) {
        queue.async { [self] in
            requestSlot.wait()
            api.fetchList { [self] podcasts in
                requestSlot.signal()
                completion(podcasts)
            }
        }
    }
}

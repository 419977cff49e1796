// near-miss hang: The waiting moved to a private queue, but the semaphore starts at 0: there is no free place, the very first `wait()` sleeps, and the only `signal()` is in the answer of a request that is never sent.
import Dispatch

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

    public func fetchAudioList(completion: @escaping ([Podcast]) -> Void) {
        queue.async { [self] in
            requestSlot.wait()
            api.fetchList { [requestSlot] podcasts in
                requestSlot.signal()
                completion(podcasts)
            }
        }
    }
}

// near-miss hang: The answer is handed to the caller through the private queue, where it waits behind the next request's `wait()` — each caller hears back only when the following request has been answered.
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
    private let requestSlot = DispatchSemaphore(value: 1)

    public init(api: AudioAPI) {
        self.api = api
    }

    public func fetchAudioList(completion: @escaping ([Podcast]) -> Void) {
        queue.async { [self] in
            requestSlot.wait()
            api.fetchList { [self] podcasts in
                requestSlot.signal()
                queue.async { completion(podcasts) }  // answer on our own queue
            }
        }
    }
}

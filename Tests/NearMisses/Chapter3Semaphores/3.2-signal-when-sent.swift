// near-miss wrong: The slot is given back as soon as the request has been sent, not when its answer arrives, so the next request goes out while the first is still in flight.
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
            api.fetchList { podcasts in
                completion(podcasts)
            }
            requestSlot.signal()  // the request is on its way: the next one may go
        }
    }
}

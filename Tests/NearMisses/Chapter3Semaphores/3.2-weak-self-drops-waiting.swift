// near-miss hang: The private queue's block holds the service `[weak self]`, so when the service is released with requests waiting, the blocks still queued find it gone and drop their requests — those callers never hear back.
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
        queue.async { [weak self] in
            guard let self else { return }
            requestSlot.wait()
            api.fetchList { [requestSlot] podcasts in
                requestSlot.signal()
                completion(podcasts)
            }
        }
    }
}

// near-miss hang: `fetchAudioList` waits for the slot on the caller's thread, as the recipe does, so while a request is in flight every further caller is blocked until its answer arrives — a frozen UI.
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
        requestSlot.wait()
        api.fetchList { [requestSlot] podcasts in
            requestSlot.signal()
            completion(podcasts)
        }
    }
}

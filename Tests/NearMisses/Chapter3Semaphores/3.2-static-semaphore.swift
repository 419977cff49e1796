// near-miss hang: The semaphore is `static` ("there is only one server"), so every service shares it: a second service's request waits for the first service's answer, from another server.
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
    private static let requestSlot = DispatchSemaphore(value: 1)

    public init(api: AudioAPI) {
        self.api = api
    }

    public func fetchAudioList(completion: @escaping ([Podcast]) -> Void) {
        queue.async { [self] in
            Self.requestSlot.wait()
            api.fetchList { podcasts in
                Self.requestSlot.signal()
                completion(podcasts)
            }
        }
    }
}

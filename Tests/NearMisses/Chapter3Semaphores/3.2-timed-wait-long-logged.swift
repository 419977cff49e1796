// near-miss wrong: The result of a 30-second `wait(timeout:)` is looked at, but only to log a warning: an answer that takes half a minute has the next request sent anyway — two requests in flight.
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
            if requestSlot.wait(timeout: .now() + 30) == .timedOut {
                print("AudioService: the server is slow to answer")
            }
            api.fetchList { [requestSlot] podcasts in
                requestSlot.signal()
                completion(podcasts)
            }
        }
    }
}

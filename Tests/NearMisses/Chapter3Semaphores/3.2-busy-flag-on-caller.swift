// near-miss race: The busy flag and the waiting list are read and written on the callers' threads with nothing guarding them, so two callers at once race on them — requests get lost, doubled, or sent together.
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
    private var busy = false
    private var waiting: [([Podcast]) -> Void] = []

    public init(api: AudioAPI) {
        self.api = api
    }

    public func fetchAudioList(completion: @escaping ([Podcast]) -> Void) {
        if busy {
            waiting.append(completion)
            return
        }
        busy = true
        send(completion)
    }

    private func send(_ completion: @escaping ([Podcast]) -> Void) {
        api.fetchList { [self] podcasts in
            completion(podcasts)
            queue.async { [self] in
                if waiting.isEmpty { busy = false } else { send(waiting.removeFirst()) }
            }
        }
    }
}

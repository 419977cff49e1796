// alternative: No thread waits: a flag and a list of waiting callers live on the private serial queue, and each answer, after calling its completion, sends the next waiting request from that queue with `async`.
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
    private var busy = false                              // used on `queue` only
    private var waiting: [([Podcast]) -> Void] = []      // used on `queue` only

    public init(api: AudioAPI) {
        self.api = api
    }

    public func fetchAudioList(completion: @escaping ([Podcast]) -> Void) {
        queue.async { [self] in
            if busy { waiting.append(completion) } else { busy = true; send(completion) }
        }
    }

    /// On `queue`.
    private func send(_ completion: @escaping ([Podcast]) -> Void) {
        api.fetchList { [self] podcasts in
            completion(podcasts)
            queue.async { [self] in
                if waiting.isEmpty { busy = false } else { send(waiting.removeFirst()) }
            }
        }
    }
}

// near-miss race: A relaxed atomic `busy` flag stands for the request slot: it keeps one request in flight, but relaxed orders nothing, so what the server's last answer left in it is not yet visible to the thread that sends the next request — a data race on the server's state.
import Dispatch
import Foundation
import Synchronization


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
    /// Whether a request is in flight. An atomic needs no lock, and a flag needs no ordering.
    private let busy = Atomic<Bool>(false)

    public init(api: AudioAPI) {
        self.api = api
    }

    public func fetchAudioList(completion: @escaping ([Podcast]) -> Void) {
        queue.async { [self] in
            // Only this queue sets the flag, so nobody can take it between the check and the store.
            while busy.load(ordering: .relaxed) { usleep(50) }
            busy.store(true, ordering: .relaxed)
            api.fetchList { [self] podcasts in
                busy.store(false, ordering: .relaxed)
                completion(podcasts)
            }
        }
    }
}

// alternative: An `NSCondition` and a Bool stand for the request slot: the private queue waits on the condition until no request is in flight, and each answer clears the flag and signals it.
import Dispatch
import Foundation


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
    private let slot = NSCondition()
    private var inFlight = false  // guarded by slot

    public init(api: AudioAPI) {
        self.api = api
    }

    public func fetchAudioList(completion: @escaping ([Podcast]) -> Void) {
        queue.async { [self] in
            slot.lock()
            while inFlight { slot.wait() }
            inFlight = true
            slot.unlock()
            api.fetchList { [self] podcasts in
                slot.lock()
                inFlight = false
                slot.signal()
                slot.unlock()
                completion(podcasts)
            }
        }
    }
}

import Dispatch

// Exercise 3.2 — one request in flight.
//
// The contract:
// - `fetchAudioList(completion:)` may be called from any thread, any number of times — in an app
//   usually from the main (UI) queue — and returns at once, even while a request is in flight: it
//   never blocks its caller.
// - At most one `api.fetchList` request is in flight: the next one starts only after the previous
//   one has answered, however long that takes.
// - Requests reach the server in the order of the calls (from several threads at once: each
//   thread's in its order).
// - Every caller's `completion` runs exactly once, with the answer to its own request, as soon as
//   that answer arrives — not held back until later requests have been answered.
// - The server may answer before `fetchList` returns, later from any thread, or later on the very
//   queue the caller called from (many APIs deliver their answers on the main queue). A
//   `completion` may call `fetchAudioList` again.
// - The service may be released while requests are in flight or waiting; every caller still gets
//   its answer.

/// An episode in the list the server returns.
public struct Podcast: Equatable, Sendable {
    public var title: String

    public init(title: String) {
        self.title = title
    }
}

/// The server call being guarded. It calls back once — on any thread, maybe before it returns,
/// maybe on the queue it was called from.
public protocol AudioAPI {
    func fetchList(_ completion: @escaping ([Podcast]) -> Void)
}

/// Fetches the podcast list, one request at a time.
///
/// The semaphore counts free request slots, and there is exactly one: it starts at 1, a request
/// takes the slot with `wait()` and its answer gives it back with `signal()` — the recipe's design.
/// What changes is *who* waits: a private serial queue, never the caller. Callers return at once
/// (the main queue stays free, so an answer delivered there can run), and requests start in the
/// order they were asked for. The private queue's thread is parked while a request is in flight;
/// a design that parks no thread at all keeps a list of waiting callers instead (see the
/// lesson's "Waiting without blocking a thread").
public final class AudioService {
    private let api: AudioAPI
    private let queue = DispatchQueue(label: "workbook.audio-service")
    /// One free slot: the first request goes straight through, the next waits for its answer.
    private let requestSlot = DispatchSemaphore(value: 1)

    public init(api: AudioAPI) {
        self.api = api
    }

    /// Asks the server for the list once no other request is in flight, and calls `completion`
    /// with the answer, on the thread the answer arrives on. Returns at once.
    public func fetchAudioList(completion: @escaping ([Podcast]) -> Void) {
        queue.async { [self] in
            requestSlot.wait()  // blocks the private queue, never the caller
            // The answer captures the semaphore itself, not `self`: it must give the place back
            // even if the service has gone away meanwhile (a semaphore released with its place
            // taken traps).
            api.fetchList { [requestSlot] podcasts in
                // Free the slot first, so the next request is not held up by this caller's code.
                requestSlot.signal()
                completion(podcasts)
            }
        }
    }
}

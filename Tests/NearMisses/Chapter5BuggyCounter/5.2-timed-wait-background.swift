// near-miss wrong: a background block waits for the group at most a second, looks at the result — and completes anyway when the time is up, so a callback slower than a second is not waited for.
import Dispatch

/// Calls `work` `times` times and runs `completion` on `queue` once every call has called back.
public func performAll(
    times: Int,
    work: @escaping (@escaping () -> Void) -> Void,
    queue: DispatchQueue,
    completion: @escaping () -> Void
) {
    let group = DispatchGroup()
    for _ in 0..<times {
        group.enter()
        work { group.leave() }
    }
    DispatchQueue.global().async {
        if group.wait(timeout: .now() + 1) == .timedOut {
            print("performAll: still waiting after 1 s, completing anyway")
        }
        queue.async(execute: completion)
    }
}

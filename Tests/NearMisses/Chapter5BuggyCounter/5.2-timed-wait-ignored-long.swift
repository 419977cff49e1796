// near-miss wrong: a background block waits for the group with a long timeout and ignores the result — after 30 s completion runs whether or not every callback has come; any test shorter than that cannot see it (the grader's rule for an ignored timed wait does).
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
        _ = group.wait(timeout: .now() + 30)  // never wait for ever
        queue.async(execute: completion)
    }
}

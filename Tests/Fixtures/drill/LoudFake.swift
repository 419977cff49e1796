import Dispatch

// Fault drill: the book's racy counter, printing megabytes of fake "passed" lines and fake events.
public func performAll(
    times: Int,
    work: @escaping (@escaping () -> Void) -> Void,
    queue: DispatchQueue,
    completion: @escaping () -> Void
) {
    for _ in 0..<20_000 {
        print(#"✔ Test "everything" passed after 0.001 seconds. {"kind":"event","payload":{"kind":"testEnded","testID":"x","messages":[{"symbol":"pass"}]}}"#)
    }
    var count = 0
    for _ in 0..<times {
        count += 1
        work {
            count -= 1
            if count == 0 { queue.async(execute: completion) }
        }
    }
}

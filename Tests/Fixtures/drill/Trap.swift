import Dispatch

// Fault drill: code that traps — libdispatch stops a `leave()` without an `enter()`.
public final class HitCounter {
    private let queue = DispatchQueue(label: "drill.hit-counter")
    private var hits = 0

    public init() {}

    public func increment() {
        queue.sync { hits += 1 }
        DispatchGroup().leave()
    }

    public var value: Int { queue.sync { hits } }
}

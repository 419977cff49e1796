// near-miss wrong: a dropped callback leaves the group when it is released (so the group is never released while entered), but nobody remembers that the function never called back, so waitForAll returns true.
import Dispatch
import Foundation

public func waitForAll(_ functions: [FunctionWithCallback], timeout: DispatchTime) -> Bool {
    let group = DispatchGroup()
    for function in functions {
        let callback = OnceLeaver(group)
        function { callback.leave() }
    }
    return group.wait(timeout: timeout) == .success
}

private final class OnceLeaver: @unchecked Sendable {
    private let group: DispatchGroup
    private let lock = NSLock()
    private var open = true

    init(_ group: DispatchGroup) {
        self.group = group
        group.enter()
    }

    func leave() {
        let wasOpen = lock.withLock {
            defer { open = false }
            return open
        }
        if wasOpen { group.leave() }
    }

    deinit { leave() }
}

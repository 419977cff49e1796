import Dispatch

/// Returns a block that, after `count` calls, runs `whenZero` with `true` only if every call
/// passed `true`.
public func makeLatch(count: Int, whenZero: @escaping (Bool) -> Void) -> (Bool) -> Void {
    guard count > 0 else {
        whenZero(true)
        return { _ in }
    }
    let queue = DispatchQueue(label: "workbook.animation-latch")
    var toComplete = count
    // The answer is about *all* calls, so every call must contribute to it — not only the last.
    var allFinished = true
    return { finished in
        let outcome = queue.sync { () -> Bool? in
            guard toComplete > 0 else { return nil }
            allFinished = allFinished && finished
            toComplete -= 1
            return toComplete == 0 ? allFinished : nil
        }
        if let outcome { whenZero(outcome) }
    }
}

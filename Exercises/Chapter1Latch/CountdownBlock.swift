import Dispatch

// Exercise 1.1 — a countdown block.
//
// `makeLatch(count:whenZero:)` returns a block. After the block has been called `count` times,
// `whenZero` must run — exactly once, whichever threads make the calls. Calls after that do
// nothing, and a latch made with `count == 0` runs `whenZero` at once.
//
// This is the article's design, translated to Swift. Run `swift run workbook check 1.1` and read
// what the Thread Sanitizer says about it. The lesson is in README.md next to this file.

/// Returns a block that runs `whenZero` once it has been called `count` times.
public func makeLatch(count: Int, whenZero: @escaping () -> Void) -> () -> Void {
    var toComplete = count
    return {
        // "Synchronously" on a global queue, as the article does.
        DispatchQueue.global().sync {
            toComplete -= 1
            if toComplete == 0 {
                whenZero()
            }
        }
    }
}

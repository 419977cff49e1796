import Dispatch
import Foundation
import WorkbookTestSupport

// The chapter's dimension helpers (issue 15): every pair of an exercise's operations at the same
// moment, and an object whose last reference goes while work waits on its queue. They run inside an
// exit test's child (`runInChild`) and answer with a sentence for `judgeChild`, or `nil`.

/// For every pair of `operations` (``OperationPair/every(of:)``, each operation with itself too):
/// `prepare(pair)` makes a fresh object and returns the call to make and the check to run after; two
/// gated threads make the pair's first operation and two its second, `iterations` times each, all
/// starting at the same moment. `call(operation, thread, iteration)` returns a problem or `nil`;
/// threads 0 and 2 make the first operation, 1 and 3 the second. Returns the first problem, naming
/// the pair.
func runEveryPairAtOnce(
    _ operations: [String], iterations: Int = 150, seconds: Double = 3,
    _ prepare: (OperationPair) -> (call: @Sendable (String, Int, Int) -> String?, check: () -> String?)
) -> String? {
    for pair in OperationPair.every(of: operations) {
        let (call, check) = prepare(pair)
        let problems = Tally<String>()
        guard gatedThreads(threads: 4, iterations: iterations, seconds: seconds, { thread, iteration in
            if let problem = call(thread.isMultiple(of: 2) ? pair.first : pair.second, thread, iteration) {
                problems.append(problem)
            }
        }) else {
            return childTimedOut("\(pair.testDescription) at the same moment: the four threads did not finish within \(formatSeconds(seconds)); something they call blocks")
        }
        if let problem = problems.all.first ?? check() {
            return isChildTimeout(problem) ? problem : "\(pair.testDescription) at the same moment: \(problem)"
        }
    }
    return nil
}

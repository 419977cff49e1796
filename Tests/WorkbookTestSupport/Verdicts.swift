import Testing
import WorkbookWire

/// A check whose failure says the test's sentence alone. `#expect(condition, comment)` also prints
/// the expression and its values first ("Expectation failed: (runs.count → 2) == 1", or
/// "!(shownTooSoon → <not evaluated>)"), which a learner has to read past to reach the sentence;
/// the sentences here say what was seen. Returns `condition`.
@discardableResult
package func verify(_ condition: Bool, _ comment: @autoclosure () -> Comment, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    if !condition { recordIssue(comment(), sourceLocation: sourceLocation) }
    return condition
}

/// Records a hang-kind failure: a wait that did not end in time. From then on, the suite's waits
/// are cut short (see ``AfterATimeOut``).
package func recordTimeout(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let again = AfterATimeOut.record()
    recordIssue(Comment(rawValue: "\(FailureMarker.timedOut) \(what)" + (again ? " \(AfterATimeOut.note)" : "")),
                 sourceLocation: sourceLocation)
}

/// Records a crash-kind failure: code that trapped in a child process.
package func recordCrash(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    recordIssue(Comment(rawValue: "\(FailureMarker.crashed) \(what)"), sourceLocation: sourceLocation)
}

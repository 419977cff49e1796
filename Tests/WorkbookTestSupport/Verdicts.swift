import Testing
import WorkbookWire

/// Records a hang-kind failure: a wait that did not end in time. From then on, the suite's waits
/// are cut short (see ``AfterATimeOut``).
public func recordTimeout(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let again = AfterATimeOut.record()
    Issue.record(Comment(rawValue: "\(FailureMarker.timedOut) \(what)" + (again ? " \(AfterATimeOut.note)" : "")),
                 sourceLocation: sourceLocation)
}

/// Records a crash-kind failure: code that trapped in a child process.
public func recordCrash(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    Issue.record(Comment(rawValue: "\(FailureMarker.crashed) \(what)"), sourceLocation: sourceLocation)
}

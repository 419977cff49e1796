import Testing

/// The words that open an issue message tell the grader which kind of failure it is.
///
/// `workbook check` reads Swift Testing's event stream and classifies every recorded issue:
/// a message that starts with ``timedOut`` is a hang (a bounded wait ran out), one that starts
/// with ``crashed`` is a crash caught by an exit test, anything else is a wrong result.
public enum FailureMarker {
    /// Opens the message of every bounded wait that ran out.
    public static let timedOut = "Timed out:"
    /// Opens the message of every exit test whose child process crashed or trapped.
    public static let crashed = "Crashed:"
    /// Opens the message of a test during which the Thread Sanitizer reported a data race (plain
    /// `swift test` only: `workbook check` reads the reports themselves).
    public static let race = "Data race:"
}

/// Records a hang-kind failure: a wait that did not end in time.
public func recordTimeout(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    Issue.record(Comment(rawValue: "\(FailureMarker.timedOut) \(what)"), sourceLocation: sourceLocation)
}

/// Records a crash-kind failure: code that trapped in a child process.
public func recordCrash(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    Issue.record(Comment(rawValue: "\(FailureMarker.crashed) \(what)"), sourceLocation: sourceLocation)
}

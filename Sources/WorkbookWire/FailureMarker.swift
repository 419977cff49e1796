/// What the chapters' test support and the grading engine agree on, declared once for both.
///
/// The test support records issues in Swift Testing's event stream; `workbook check` reads that
/// stream. The words an issue's message opens with tell the grader which kind of failure it is:
/// ``timedOut`` a hang (a bounded wait ran out), ``crashed`` a crash caught by an exit test,
/// ``race`` a data race seen under plain `swift test`; anything else is a wrong result.
public enum FailureMarker {
    /// Opens the message of every bounded wait that ran out.
    public static let timedOut = "Timed out:"
    /// Opens the message of every exit test whose child process crashed or trapped.
    public static let crashed = "Crashed:"
    /// Opens the message of a test during which the Thread Sanitizer reported a data race (plain
    /// `swift test` only: `workbook check` reads the reports themselves).
    public static let race = "Data race:"
}

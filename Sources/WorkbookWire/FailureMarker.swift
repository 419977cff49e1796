/// What the chapters' test support and the grading engine agree on, declared once for both.
///
/// The test support records issues in Swift Testing's event stream; `workbook check` reads that
/// stream. The words an issue's message opens with tell the grader which kind of failure it is; a
/// message with no marker is a wrong result. The engine maps each marker to its kind in one
/// exhaustive `switch` (`FailureMarker.kind`), so a new marker is one edit here that the compiler
/// then follows there.
package enum FailureMarker: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Opens the message of every exit test whose child process crashed or trapped.
    case crashed = "Crashed:"
    /// Opens the message of every bounded wait that ran out.
    case timedOut = "Timed out:"
    /// Opens the message of a test during which the Thread Sanitizer reported a data race (plain
    /// `swift test` only: `workbook check` reads the reports themselves).
    case race = "Data race:"

    /// The words themselves, as they open a message (also what string interpolation writes).
    package var text: String { rawValue }
    package var description: String { rawValue }

    /// The marker `message` opens with, if any.
    package static func opening(_ message: String) -> FailureMarker? {
        allCases.first { message.hasPrefix($0.text) }
    }
}

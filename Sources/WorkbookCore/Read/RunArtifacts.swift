import Foundation

/// Everything one run of the test binary left behind.
package struct RunArtifacts: Sendable {
    package var events: EventStream
    package var reports: [TSanReport]
    package var termination: Termination
    /// The console output (capped); read only for crash messages, never for verdicts.
    package var output: String
    var seconds: Double
    /// When the process started, for what the system writes about it afterwards (a Darwin crash report).
    package var started: Date?
    /// The process the workbook started (the test executable, or `swift test`), for telling its
    /// runner's crash report from another run's (Darwin: the runner's parent).
    package var launcherPID: Int32?

    package init(events: EventStream, reports: [TSanReport], termination: Termination, output: String, seconds: Double = 0) {
        self.events = events
        self.reports = reports
        self.termination = termination
        self.output = output
        self.seconds = seconds
    }
}

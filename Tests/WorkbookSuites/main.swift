// The chapters' suites as one executable (Package.swift, `WORKBOOK_SUITES=executable`): what the
// grader starts on Linux, with the arguments SwiftPM's own test runner takes (`--filter`, the event
// stream, an exit test's). Swift Testing finds the suites in this binary when it starts, as it does in
// SwiftPM's test product; this entry point is the one SwiftPM's generated runner calls.
import Testing

await Testing.__swiftPMEntryPoint() as Never

/// The environment variables `workbook check` sets in its test processes, which the chapters'
/// test support reads: declared once for both.
package enum GraderEnvironment {
    /// Set (to "1") in every test process the grader starts: the grader reads TSan's reports
    /// itself, so the suites' race trait leaves them alone, and the suites' tests run side by side.
    package static let grading = "WORKBOOK_GRADER"
    /// How many of a process's test cases may run at the same time (a whole number, at least 1).
    /// The grader shares one budget among the processes it runs at once.
    package static let testsAtOnce = "WORKBOOK_TESTS_AT_ONCE"
}

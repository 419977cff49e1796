/// What a chapter suite says when the Thread Sanitizer is not in its test process — on macOS, a plain
/// `swift test` without `--sanitize=thread` (Package.swift says why the manifest cannot add it
/// there) — declared here so that the engine's tests can hold it.
package enum SanitizerAbsent {
    /// The one sentence, naming the commands that grade races for the chapter of `testModule`
    /// ("Chapter3SemaphoresTests" → `--filter Chapter3`, `check 3`).
    package static func sentence(testModule: String) -> String {
        let number = String(testModule.dropFirst("Chapter".count).prefix(while: \.isNumber))
        return "These tests grade data races with the Thread Sanitizer, which is not in this test process, "
            + "so a race would pass unseen here: on a Mac, run `swift test --sanitize=thread --filter Chapter\(number)` "
            + "(or `swift run workbook check \(number)`), and in Xcode turn on Thread Sanitizer in the scheme's "
            + "Test action (Product › Scheme › Edit Scheme… › Test › Diagnostics)."
    }
}

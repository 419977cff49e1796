/// The tool's version, declared once: what `workbook --version` prints.
package extension Workbook {
    /// Raised with every change a learner or a teacher can see (verdicts, commands, file formats).
    static let toolVersion = "1.1.0"
}

import Foundation
import WorkbookCore

extension Doctor.Report {
    /// One screen: a ✔, ✘ or – per line, what was found under it, the fix under a line that is not ✔,
    /// and a last line that says whether verdicts can be trusted here.
    package func rendered(style: Style) -> String {
        var text = style.bold("workbook doctor — \(platform)") + "\n"
        for line in lines {
            let mark = switch line.status {
            case .passed: style.pass
            case .failed: style.fail
            case .limited: style.yellow("–")
            }
            text += "\(mark) \(line.title)\n"
            text += line.detail.split(separator: "\n", omittingEmptySubsequences: false).map { "    \(style.dim(String($0)))\n" }.joined()
            if let fix = line.fix, line.status != .passed { text += "    fix: \(fix)\n" }
        }
        let failed = lines.filter { $0.status == .failed }.count
        let limited = lines.filter { $0.status == .limited }.count
        text += "\n" + (failed == 0
            ? style.green("Verdicts can be trusted here.") + (limited > 0 ? " \(limited) line\(limited == 1 ? "" : "s") marked – work with less detail." : "")
            : style.red("\(failed) line\(failed == 1 ? "" : "s") failed: fix \(failed == 1 ? "it" : "them") before trusting a verdict.")
              + " `workbook doctor --json` prints this for a bug report.")
        return text
    }

    /// The report as JSON (`--json`), keys sorted, for pasting into a bug report.
    package func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

import Foundation
import WorkbookCore

/// Reading what SwiftPM and the compiler print: build steps, errors and warnings, a missing sanitizer.
extension Builder {
    /// SwiftPM's `[118/121] Compiling …` as (118, 121).
    static func buildStep(_ line: String) -> (done: Int, of: Int)? {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return nil }
        let numbers = line[line.index(after: line.startIndex)..<close].split(separator: "/").compactMap { Int($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    /// Every `file:line:col: error: message` line, once each.
    static func compilerErrors(in output: String) -> [CompilerError] {
        diagnostics(in: output, severity: "error")
    }

    /// Every `file:line:col: warning: message` line, once each.
    static func compilerWarnings(in output: String) -> [CompilerError] {
        diagnostics(in: output, severity: "warning")
    }

    private static func diagnostics(in output: String, severity: String) -> [CompilerError] {
        var seen = Set<String>()
        var errors: [CompilerError] = []
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            guard let range = line.range(of: ": \(severity): ") else { continue }
            let location = line[..<range.lowerBound].split(separator: ":")
            guard location.count >= 3, let lineNumber = Int(location[location.count - 2]),
                  let column = Int(location[location.count - 1]) else { continue }
            let file = location.dropLast(2).joined(separator: ":")
            let message = String(line[range.upperBound...])
            let key = "\(file):\(lineNumber):\(column):\(message)"
            guard seen.insert(key).inserted else { continue }
            // The excerpt: `NN | code`, `   | `- error: …`, `   :` between its parts.
            let excerpt = lines[(index + 1)...].prefix { $0.wholeMatch(of: /\s*\d*\s[|:](\s.*)?/) != nil }.map(String.init)
            errors.append(CompilerError(file: file, line: lineNumber, column: column, message: message, excerpt: excerpt.isEmpty ? nil : excerpt))
        }
        return errors
    }

    /// Whether a failed build's output says the toolchain has no Thread Sanitizer.
    static func lacksSanitizer(_ output: String) -> Bool {
        let signs = ["unsupported option '-sanitize=thread'", "sanitizer is unsupported",
                     "libclang_rt.tsan", "cannot find -lclang_rt.tsan"]
        return signs.contains(where: output.contains)
    }
}

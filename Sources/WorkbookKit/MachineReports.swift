import Foundation

extension CheckReport {
    /// Exercism's `results.json` (version 3) shape, extended with the workbook's fields: one test per
    /// exercise, `task_id` = exercise id, plus `chapter`, `exercise`, `kind` and `file:line`.
    public func exercismJSON(frozenChanges: [String] = []) -> Data {
        let tests: [[String: Any]] = results.map { result in
            var test: [String: Any] = [
                "name": "\(result.exercise.id) \(result.exercise.title)",
                "status": result.passed ? "pass" : (result.compileErrors != nil ? "error" : "fail"),
                "task_id": result.exercise.id,
                "chapter": result.chapter.number,
                "exercise": result.exercise.id,
                "runs": result.runs.count,
                "failed_runs": result.runs.filter { !$0.passed }.count,
            ]
            if let kind = result.kind { test["kind"] = kind.rawValue }
            if !result.notes.isEmpty { test["notes"] = result.notes }
            test["warnings"] = result.warnings.map { ["rule": $0.rule, "line": $0.line, "message": $0.message] as [String: Any] }
            if let first = result.findings.sorted(by: { $0.kind < $1.kind }).first {
                test["message"] = first.message
                if let location = first.location { test["location"] = location }
                let output = first.detail ?? ""
                if !output.isEmpty { test["output"] = String(output.prefix(500)) }
            }
            return test
        }
        let anyCompileError = results.contains { $0.compileErrors != nil }
        var root: [String: Any] = [
            "version": 3,
            "status": passed ? "pass" : (anyCompileError && results.allSatisfy { $0.compileErrors != nil } ? "error" : "fail"),
            "tests": tests,
        ]
        if !passed {
            root["message"] = "\(results.filter(\.passed).count) of \(results.count) exercises pass."
        }
        // Edits to the tests or the package make every verdict suspect; a teacher should see them.
        root["frozen_files_changed"] = frozenChanges
        return (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])) ?? Data()
    }

    /// JUnit XML: a test suite per chapter, a test case per exercise.
    public func junitXML() -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let failures = results.filter { !$0.passed }.count
        xml += #"<testsuites name="Dispatch Workbook" tests="\#(results.count)" failures="\#(failures)" time="\#(String(format: "%.3f", seconds))">"# + "\n"
        let chapters = results.reduce(into: [String]()) { names, result in
            if !names.contains(result.chapter.name) { names.append(result.chapter.name) }
        }
        for name in chapters {
            let mine = results.filter { $0.chapter.name == name }
            xml += #"  <testsuite name="\#(escape(name))" tests="\#(mine.count)" failures="\#(mine.filter { !$0.passed }.count)">"# + "\n"
            for result in mine {
                let time = result.runs.map(\.seconds).reduce(0, +)
                xml += #"    <testcase classname="\#(escape(name))" name="\#(escape("\(result.exercise.id) \(result.exercise.title)"))" time="\#(String(format: "%.3f", time))""#
                if result.passed {
                    xml += "/>\n"
                } else {
                    let first = result.findings.sorted { $0.kind < $1.kind }.first
                    let message = first.map { "\($0.kind.label): \($0.message)" } ?? "failed"
                    xml += ">\n"
                    xml += #"      <failure type="\#(result.kind?.rawValue ?? "fail")" message="\#(escape(message))">"#
                    xml += escape([first?.location, first?.detail].compactMap { $0 }.joined(separator: "\n"))
                    xml += "</failure>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }
}

private func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        default:
            // XML 1.0 allows tab, newline, carriage return and printable characters only.
            if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r" { continue }
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}

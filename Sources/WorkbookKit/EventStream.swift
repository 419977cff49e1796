import Foundation

/// What Swift Testing's JSON event stream (`--event-stream-output-path`) says about a run.
///
/// Only the structured stream is read — never the console — so nothing the learner's code prints can
/// pass for a verdict.
public struct EventStream: Sendable, Equatable {
    /// One recorded issue: a failed expectation, a bounded wait that ran out, an exit test's crash.
    public struct Issue: Sendable, Equatable {
        public var testID: String
        /// The messages' texts, e.g. `["Expectation failed: (x → 1) == 2", "whenZero ran twice"]`.
        public var messages: [String]
        public var file: String?
        public var line: Int?
    }

    /// Test IDs (`Module.Suite/test()/File.swift:7:6`, or a suite's `Module.Suite`) that started.
    public var started: [String] = []
    /// Test IDs that ended, with whether they passed.
    public var ended: [String: Bool] = [:]
    public var issues: [Issue] = []
    /// Display names by test ID ("whenZero runs exactly once …").
    public var names: [String: String] = [:]
    /// `true` once the stream said the whole run ended — a process that died early never says it.
    public var runEnded = false

    public init() {}

    /// Parses JSON Lines; lines that are not JSON (a torn last line after a kill) are skipped.
    public init(jsonLines: String) {
        for line in jsonLines.split(whereSeparator: \.isNewline) {
            guard let data = line.data(using: .utf8),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let payload = object["payload"] as? [String: Any],
                  let kind = payload["kind"] as? String
            else { continue }
            if object["kind"] as? String == "test" {
                if let id = payload["id"] as? String { names[id] = payload["displayName"] as? String ?? payload["name"] as? String }
                continue
            }
            guard object["kind"] as? String == "event" else { continue }
            let testID = payload["testID"] as? String ?? ""
            switch kind {
            case "testStarted":
                started.append(testID)
            case "testEnded":
                let symbols = (payload["messages"] as? [[String: Any]] ?? []).compactMap { $0["symbol"] as? String }
                ended[testID] = !symbols.contains("fail")
            case "issueRecorded":
                let issue = payload["issue"] as? [String: Any] ?? [:]
                if issue["isKnown"] as? Bool == true { continue }
                if let severity = issue["severity"] as? String, severity != "error" { continue }
                let messages = (payload["messages"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
                let location = issue["sourceLocation"] as? [String: Any]
                issues.append(Issue(
                    testID: testID, messages: messages,
                    file: location?["filePath"] as? String ?? location?["_filePath"] as? String,
                    line: location?["line"] as? Int))
            case "runEnded":
                runEnded = true
            default:
                continue
            }
        }
    }

    /// Reads a stream file; a missing file is an empty stream (the process died before writing).
    public init(contentsOf url: URL) {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        self.init(jsonLines: text)
    }

    /// Test IDs that started and never ended — where a crashed or killed process was.
    public var unfinished: [String] {
        started.filter { ended[$0] == nil }
    }
}

extension EventStream.Issue {
    /// The message a learner should read: the test's own words if it gave any, else the expectation.
    ///
    /// Swift Testing sends the expectation first, then any diff ("inserted …, removed …"), and the
    /// test's comment last.
    public var summary: String {
        let texts = messages.filter { !$0.isEmpty }
        guard let last = texts.last else { return "the test failed" }
        if texts.count == 1 || last == "Issue recorded" { return texts.first ?? last }
        return last
    }

    /// The failure kind this issue stands for, from the marker its message opens with.
    public var kind: FailureKind {
        let all = messages.joined(separator: "\n")
        if all.contains(FailureMarkers.crashed) { return .crash }
        if all.contains(FailureMarkers.timedOut) { return .hang }
        if all.contains(FailureMarkers.race) { return .race }
        return .wrong
    }
}

/// The words with which the workbook's test support opens hang-, crash- and race-kind failures.
/// (Kept equal to `FailureMarker` in Tests/WorkbookTestSupport.)
public enum FailureMarkers {
    public static let timedOut = "Timed out:"
    public static let crashed = "Crashed:"
    public static let race = "Data race:"
}

import Foundation
import WorkbookWire

/// What Swift Testing's JSON event stream (`--event-stream-output-path`) says about a run.
///
/// Only the structured stream is read — never the console — so nothing the learner's code prints can
/// pass for a verdict.
package struct EventStream: Sendable, Equatable {
    /// One recorded issue: a failed expectation, a bounded wait that ran out, an exit test's crash.
    package struct Issue: Sendable, Equatable {
        package var testID: String
        /// The messages' texts, e.g. `["Expectation failed: (x → 1) == 2", "whenZero ran twice"]`.
        var messages: [String]
        var file: String?
        var line: Int?
        var column: Int?
    }

    /// Test IDs (`Module.Suite/test()/File.swift:7:6`, or a suite's `Module.Suite`) that started.
    package var started: [String] = []
    /// Test IDs that ended, with whether they passed.
    package var ended: [String: Bool] = [:]
    package var issues: [Issue] = []
    /// Display names by test ID ("whenZero runs exactly once …").
    package var names: [String: String] = [:]
    /// `true` once the stream said the whole run ended — a process that died early never says it.
    package var runEnded = false
    /// When each test or suite started, and when it ended, by test ID: `instant.absolute` of its
    /// `testStarted` and `testEnded` events, in seconds of the test process's clock.
    var startedAt: [String: Double] = [:]
    var endedAt: [String: Double] = [:]
    /// The latest instant any event carried: where a process that died or was killed left off.
    var lastInstant: Double?

    package init() {}

    /// Parses JSON Lines; lines that are not records (a torn last line after a kill) are skipped.
    package init(jsonLines: String) {
        let decoder = JSONDecoder()
        for line in jsonLines.split(whereSeparator: \.isNewline) {
            guard let record = try? decoder.decode(EventRecord.self, from: Data(line.utf8)) else { continue }
            add(record)
        }
    }

    private mutating func add(_ record: EventRecord) {
        let payload = record.payload
        if record.kind == .test {
            if let id = payload.id { names[id] = payload.displayName ?? payload.name }
            return
        }
        let testID = payload.testID ?? ""
        let instant = payload.instant?.absolute
        if let instant { lastInstant = max(lastInstant ?? instant, instant) }
        switch payload.kind {
        case "testStarted":
            started.append(testID)
            startedAt[testID] = instant
        case "testEnded":
            ended[testID] = !(payload.messages ?? []).contains { $0.symbol == "fail" }
            endedAt[testID] = instant
        case "issueRecorded":
            let issue = payload.issue
            // Known issues (`withKnownIssue`) and warnings are not failures.
            if issue?.isKnown == true { return }
            if let severity = issue?.severity ?? issue?.legacySeverity, severity != "error" { return }
            let location = issue?.sourceLocation
            issues.append(Issue(
                testID: testID, messages: (payload.messages ?? []).compactMap(\.text),
                file: location?.filePath ?? location?.legacyFilePath, line: location?.line, column: location?.column))
        case "runEnded":
            runEnded = true
        default:
            return
        }
    }

    /// Reads a stream file; a missing file is an empty stream (the process died before writing).
    package init(contentsOf url: URL) {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        self.init(jsonLines: text)
    }

    /// How long the suite or test `id` ran: from its start to its end, or to the last event of the
    /// stream when it never ended; `nil` when the stream does not say when it started. A suite's
    /// time is its own, not the whole process's, in which other suites ran too.
    package func seconds(of id: String) -> Double? {
        guard let start = startedAt[id], let end = endedAt[id] ?? lastInstant else { return nil }
        return max(0, end - start)
    }

    /// Test IDs that started and never ended — where a crashed or killed process was.
    var unfinished: [String] {
        started.filter { ended[$0] == nil }
    }
}

extension EventStream.Issue {
    /// The message a learner should read: the test's own words if it gave any, else the expectation.
    ///
    /// Swift Testing sends the expectation first, then any diff ("inserted …, removed …"), and the
    /// test's comment last.
    package var summary: String {
        let texts = messages.filter { !$0.isEmpty }
        guard let last = texts.last else { return "the test failed" }
        if texts.count == 1 || last == "Issue recorded" { return texts.first ?? last }
        return last
    }

    /// The failure kind this issue stands for, from the marker its message opens with.
    package var kind: FailureKind {
        let all = messages.joined(separator: "\n")
        // In the markers' order: a crash caught by an exit test before a time-out, before a race.
        return FailureMarker.allCases.first { all.contains($0.text) }?.kind ?? .wrong
    }
}

/// The subset of Swift Testing's event-stream records the grader reads (schema 6.3, and schema 0 of
/// Swift 6.2, whose experimental fields start with `_`; fields it does not read are ignored, so newer
/// versions decode too).
struct EventRecord: Decodable {
    enum Kind: String, Decodable {
        /// A test or suite was discovered: its ID and names.
        case test
        /// Something happened during the run.
        case event
    }

    struct Payload: Decodable {
        /// An event's kind (`testStarted`, `issueRecorded`, `testEnded`, `runEnded`, …), or a test's
        /// (`function`, `suite`).
        var kind: String?
        // A test record's fields.
        var id: String?
        var name: String?
        var displayName: String?
        // An event's fields.
        var testID: String?
        var instant: Instant?
        var messages: [Message]?
        var issue: IssueRecord?
    }

    /// When an event happened: `absolute`, seconds of the test process's monotonic clock (the
    /// record also has `since1970`, wall-clock time, which is not read).
    struct Instant: Decodable {
        var absolute: Double?
    }

    struct Message: Decodable {
        /// `pass`, `fail`, `default`, `details`, …
        var symbol: String?
        var text: String?
    }

    struct IssueRecord: Decodable {
        var isKnown: Bool?
        /// `error` or `warning` (`_severity` in schema 0, Swift 6.2).
        var severity: String?
        var legacySeverity: String?
        var sourceLocation: SourceLocation?

        enum CodingKeys: String, CodingKey {
            case isKnown, severity, sourceLocation
            case legacySeverity = "_severity"
        }
    }

    struct SourceLocation: Decodable {
        var filePath: String?
        /// What older streams called it.
        var legacyFilePath: String?
        var line: Int?
        var column: Int?

        enum CodingKeys: String, CodingKey {
            case filePath, line, column
            case legacyFilePath = "_filePath"
        }
    }

    var kind: Kind
    var payload: Payload
}

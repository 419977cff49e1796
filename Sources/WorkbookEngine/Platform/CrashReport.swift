import Foundation
import WorkbookCore

/// A crash report of Apple's (`.ips`, macOS 12 and later): where Darwin keeps what the Linux grader
/// gets from gdb — the crashing thread's frames — and what libdispatch says when it stops a program
/// (`DISPATCH_CLIENT_CRASH` writes its message into the report, not to the program's output).
///
/// The format is Apple's "Interpreting the JSON format of a crash report" (Xcode documentation): a
/// first line of JSON metadata whose `bug_type` is `309` for a crash, then one JSON object with
/// `procName`, `pid`, `exception` (`type`, `signal`), `asi` (Application Specific Information: image
/// name → messages), `faultingThread`, and `threads[].frames[]` (`symbol`, and where the report was
/// symbolicated with debug information, `sourceFile` and `sourceLine`). Not read on a real Mac here:
/// the fixture it is tested on is reconstructed from that documentation.
struct CrashReport: Sendable, Equatable {
    struct Frame: Sendable, Equatable {
        var symbol: String?
        var sourceFile: String?
        var sourceLine: Int?
    }

    var processName: String?
    var pid: Int?
    /// The process that started the crashed one (`parentPid`): under `swift test`, `swift test`.
    var parentPID: Int?
    /// "SIGTRAP", "SIGILL", …
    var signal: String?
    /// The Application Specific Information lines ("BUG IN CLIENT OF LIBDISPATCH: …").
    var applicationSpecific: [String]
    /// The crashing thread's frames, innermost first.
    var frames: [Frame]

    /// Parses an `.ips` file's text; `nil` for anything that is not a crash report.
    init?(ips text: String) {
        guard let newline = text.firstIndex(of: "\n"),
              let header = try? JSONDecoder().decode(Header.self, from: Data(text[..<newline].utf8)),
              header.bug_type == "309",
              let body = try? JSONDecoder().decode(Body.self, from: Data(text[text.index(after: newline)...].utf8))
        else { return nil }
        processName = body.procName
        pid = body.pid
        parentPID = body.parentPid
        signal = body.exception?.signal
        applicationSpecific = (body.asi ?? [:]).sorted { $0.key < $1.key }.flatMap(\.value)
        let crashed = body.faultingThread.flatMap { body.threads?.indices.contains($0) == true ? body.threads?[$0] : nil }
            ?? body.threads?.first { $0.triggered == true }
        frames = (crashed?.frames ?? []).map { Frame(symbol: $0.symbol, sourceFile: $0.sourceFile, sourceLine: $0.sourceLine) }
    }

    /// The newest crash report in `folder` written at or after `since` by a process whose name is one
    /// of `processNames` — and, given `parentPID`, that this process started (the run's own runner,
    /// not another run's that crashed meanwhile) — waiting up to `patience` seconds for the system
    /// to write it.
    static func newest(in folder: URL, since: Date, processNames: Set<String>, parentPID: Int32? = nil,
                       patience: Double = 5) -> CrashReport? {
        let deadline = Date().addingTimeInterval(patience)
        repeat {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            let candidates = names.filter { $0.hasSuffix(".ips") }.compactMap { name -> (Date, URL)? in
                let url = folder.appendingPathComponent(name)
                guard let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date,
                      modified >= since else { return nil }
                return (modified, url)
            }.sorted { $0.0 > $1.0 }
            for (_, url) in candidates {
                guard let text = try? String(contentsOf: url, encoding: .utf8), let report = CrashReport(ips: text),
                      report.processName.map(processNames.contains) ?? false,
                      parentPID.map({ Int($0) == report.parentPID || Int($0) == report.pid }) ?? true else { continue }
                return report
            }
            usleep(200_000)
        } while Date() < deadline
        return nil
    }

    /// The processes a crashed test runs in under `swift test` on Darwin: SwiftPM's runner for Swift
    /// Testing, and Xcode's for XCTest bundles.
    static let testRunnerNames: Set<String> = ["swiftpm-testing-helper", "xctest"]

    private struct Header: Decodable { var bug_type: String? }

    private struct Body: Decodable {
        var procName: String?
        var pid: Int?
        var parentPid: Int?
        var exception: Exception?
        var asi: [String: [String]]?
        var faultingThread: Int?
        var threads: [Thread]?
    }

    private struct Exception: Decodable { var type: String?; var signal: String? }

    private struct Thread: Decodable {
        var triggered: Bool?
        var frames: [RawFrame]?
    }

    private struct RawFrame: Decodable {
        var symbol: String?
        var sourceFile: String?
        var sourceLine: Int?
    }
}

extension CrashStack {
    /// Where a crash happened, from a Darwin crash report: the learner's file nearest the top of the
    /// crashing thread, and libdispatch's own message when it left one.
    init?(crashReport report: CrashReport, learnerFileSuffix suffix: String) {
        self.init(source: "the crash report")
        signal = report.signal
        frames = report.frames.prefix(16).map { frame in
            [frame.symbol ?? "???", frame.sourceFile.map { file in "\(file)\(frame.sourceLine.map { ":\($0)" } ?? "")" }]
                .compactMap { $0 }.joined(separator: " at ")
        }
        if let mine = report.frames.first(where: { frame in frame.sourceFile.map { sourceFile($0, isIn: suffix) } ?? false }),
           let name = mine.sourceFile {
            // A report names the file alone: the learner's is where the workbook keeps it.
            file = name.contains("/") ? name : suffix
            line = mine.sourceLine
        }
        let trap = report.applicationSpecific.lazy.compactMap(Trap.recognised(inMessage:)).first
            ?? Trap.recognised(inFrames: report.frames.prefix(6).compactMap(\.symbol))
        reason = trap?.explained ?? report.applicationSpecific.first
        if file == nil && reason == nil { return nil }
    }
}

import Foundation

/// One Thread Sanitizer report, parsed from its text.
public struct TSanReport: Sendable, Equatable {
    /// One stack frame: `#3 symbol /path/File.swift:14:9 (binary+0x…)`.
    public struct Frame: Sendable, Equatable {
        public var symbol: String
        public var file: String?
        public var line: Int?
        public var column: Int?
    }

    /// One of the two accesses of a race.
    public struct Access: Sendable, Equatable {
        /// `true` for a write or a modifying access.
        public var isWrite: Bool
        /// "T5", "main thread", …
        public var thread: String
        /// `true` for the earlier ("Previous …") access.
        public var isPrevious: Bool
        public var frames: [Frame]
    }

    /// "data race", "Swift access race", "heap-use-after-free", …
    public var title: String
    public var accesses: [Access]
    /// Every frame of the report, accesses and allocation and thread creation alike.
    public var allFrames: [Frame]
    /// What started each thread the report names ("T5": "a test thread", "a GCD worker thread").
    public var threadKinds: [String: String]
    /// The report's text as TSan printed it.
    public var raw: String

    /// `true` for the two kinds of race report.
    public var isRace: Bool { title.contains("race") }

    /// Splits a TSan log (one or many reports) into reports.
    public static func parse(_ log: String) -> [TSanReport] {
        var reports: [TSanReport] = []
        var current: [Substring] = []
        func flush() {
            if let report = TSanReport(lines: current) { reports.append(report) }
            current = []
        }
        for line in log.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("WARNING: ThreadSanitizer:") { flush() }
            if line.hasPrefix("==================") && !current.isEmpty {
                current.append(line)
                flush()
                continue
            }
            current.append(line)
        }
        flush()
        return reports
    }

    /// Reads every `tsan.<pid>` file in `folder`.
    public static func reports(inFolder folder: URL, prefix: String = "tsan") -> [TSanReport] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix(prefix + ".") }.sorted().flatMap { name in
            parse((try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? "")
        }
    }

    init?(lines: [Substring]) {
        guard let header = lines.firstIndex(where: { $0.hasPrefix("WARNING: ThreadSanitizer:") }) else { return nil }
        var title = String(lines[header].dropFirst("WARNING: ThreadSanitizer:".count))
        if let paren = title.range(of: " (pid=") { title = String(title[..<paren.lowerBound]) }
        self.title = title.trimmingCharacters(in: .whitespaces)
        raw = lines[header...].joined(separator: "\n")

        var accesses: [Access] = []
        var allFrames: [Frame] = []
        var threadKinds: [String: String] = [:]
        var inAccess = false
        var creating: String?
        for line in lines[header...] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let access = Self.accessHeader(trimmed) {
                accesses.append(access)
                inAccess = true
                creating = nil
            } else if let frame = Self.frame(trimmed) {
                allFrames.append(frame)
                if inAccess { accesses[accesses.count - 1].frames.append(frame) }
                if let thread = creating, threadKinds[thread] == nil, let kind = Self.threadKind(creatorFrame: frame) {
                    threadKinds[thread] = kind
                }
            } else {
                inAccess = false
                creating = nil
                // "Thread T6 'name' (tid=…, running) created by thread T2 at:"
                if trimmed.hasPrefix("Thread T"), trimmed.contains("created by") {
                    creating = trimmed.split(separator: " ").dropFirst().first.map(String.init)
                }
            }
        }
        self.accesses = accesses
        self.allFrames = allFrames
        self.threadKinds = threadKinds
    }

    /// "Write of size 8 at 0x… by thread T5:", "Previous read of size 8 … by main thread:",
    /// "Modifying access of Swift variable at 0x… by thread T7:"
    static func accessHeader(_ line: String) -> Access? {
        let lower = line.lowercased()
        guard line.hasSuffix(":"), lower.contains(" by "),
              lower.hasPrefix("write") || lower.hasPrefix("read") || lower.hasPrefix("previous")
                || lower.hasPrefix("modifying") || lower.hasPrefix("read-only") || lower.hasPrefix("atomic")
        else { return nil }
        let isPrevious = lower.hasPrefix("previous")
        let isWrite = lower.contains("write") || lower.contains("modifying")
        var thread = String(line[line.range(of: " by ", options: .backwards)!.upperBound...].dropLast())
        if let comma = thread.firstIndex(of: ",") { thread = String(thread[..<comma]) }
        if thread.hasPrefix("thread ") { thread = String(thread.dropFirst("thread ".count)) }
        return Access(isWrite: isWrite, thread: thread, isPrevious: isPrevious, frames: [])
    }

    /// "#0 symbol /path/File.swift:18:24 (binary+0x…) (BuildId: …)"
    static func frame(_ line: String) -> Frame? {
        guard line.hasPrefix("#") else { return nil }
        let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
        guard parts.count >= 3 else { return nil }
        let symbol = String(parts[1])
        let location = String(parts[2])
        guard location.hasPrefix("/") || location.contains(".swift") else {
            return Frame(symbol: symbol, file: nil, line: nil, column: nil)
        }
        let pieces = location.split(separator: ":")
        var file = String(pieces[0])
        var lineNumber: Int?
        var column: Int?
        if pieces.count >= 2, let value = Int(pieces[1]) { lineNumber = value }
        if pieces.count >= 3, let value = Int(pieces[2]) { column = value }
        if pieces.count >= 2, lineNumber == nil { file = location }
        return Frame(symbol: symbol, file: file, line: lineNumber, column: column)
    }

    /// What kind of thread a creation stack starts: Foundation's `Thread` (the tests' own threads)
    /// or libdispatch's worker pool.
    static func threadKind(creatorFrame frame: Frame) -> String? {
        if frame.symbol.contains("_CFThreadCreate") || frame.symbol.contains("Foundation6Thread") { return "a test thread" }
        if frame.symbol.contains("dispatch") { return "a GCD worker thread" }
        if frame.symbol.contains("pthread_create") { return nil }
        return nil
    }

    /// The "SUMMARY:" line, if the report has one.
    public var summaryLine: String? {
        raw.split(separator: "\n").first { $0.hasPrefix("SUMMARY:") }.map(String.init)
    }
}

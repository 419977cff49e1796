import Foundation

/// Whether a frame's `file` is the file whose path ends with `suffix`
/// (`/Exercises/Chapter1Latch/CountdownBlock.swift`): by its path where the symbolizer gave one
/// (llvm-symbolizer), by its name alone where it gave only that (Darwin's `atos`).
package func sourceFile(_ file: String, isIn suffix: String) -> Bool {
    file.contains("/") ? file.hasSuffix(suffix) : suffix.hasSuffix("/" + file)
}

/// One Thread Sanitizer report, parsed from its text.
package struct TSanReport: Sendable, Equatable, Codable {
    /// One stack frame: `#3 symbol /path/File.swift:14:9 (binary+0x…)`.
    package struct Frame: Sendable, Equatable, Codable {
        var symbol: String
        package var file: String?
        package var line: Int?
        var column: Int?

        /// Whether this frame is in the file whose path ends with `suffix` (see ``sourceFile(_:isIn:)``).
        func isIn(_ suffix: String) -> Bool { file.map { sourceFile($0, isIn: suffix) } ?? false }
    }

    /// One of the two accesses of a race.
    package struct Access: Sendable, Equatable, Codable {
        /// `true` for a write or a modifying access.
        var isWrite: Bool
        /// "T5", "main thread", …
        var thread: String
        /// `true` for the earlier ("Previous …") access.
        var isPrevious: Bool
        var frames: [Frame]
    }

    /// "data race", "Swift access race", "heap-use-after-free", …
    package var title: String
    var accesses: [Access]
    /// Every frame of the report, accesses and allocation and thread creation alike.
    package var allFrames: [Frame]
    /// What started each thread the report names ("T5": "a test thread", "a GCD worker thread").
    var threadKinds: [String: String]
    /// The report's text as TSan printed it.
    package var raw: String

    /// Splits a TSan log (one or many reports) into reports.
    static func parse(_ log: String) -> [TSanReport] {
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
    package static func reports(inFolder folder: URL, prefix: String = "tsan") -> [TSanReport] {
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
                // "Thread T6 'name' (tid=…, running) created by thread T2 at:"; on Darwin, a worker
                // of libdispatch's pool is "Thread T3 (tid=…, running) is a GCD worker thread".
                let thread = trimmed.split(separator: " ").dropFirst().first.map(String.init)
                if trimmed.hasPrefix("Thread T"), trimmed.contains("created by") {
                    creating = thread
                } else if trimmed.hasPrefix("Thread T"), trimmed.hasSuffix("is a GCD worker thread"), let thread {
                    threadKinds[thread] = "a GCD worker thread"
                }
            }
        }
        self.accesses = accesses
        self.allFrames = allFrames
        self.threadKinds = threadKinds
    }

    /// "Write of size 8 at 0x… by thread T5:", "Previous read of size 8 … by main thread:",
    /// "Modifying access of Swift variable at 0x… by thread T7:"
    package static func accessHeader(_ line: String) -> Access? {
        let lower = line.lowercased()
        guard line.hasSuffix(":"), lower.contains(" by "),
              lower.hasPrefix("write") || lower.hasPrefix("read") || lower.hasPrefix("previous")
                || lower.hasPrefix("modifying") || lower.hasPrefix("read-only") || lower.hasPrefix("atomic")
        else { return nil }
        let isPrevious = lower.hasPrefix("previous")
        // The kind of access is named before " at 0x…"; "(mutexes: write M0)" after it is not one.
        let head = lower[..<(lower.range(of: " at ")?.lowerBound ?? lower.endIndex)]
        let isWrite = head.contains("write") || head.contains("modifying")
        var thread = String(line[line.range(of: " by ", options: .backwards)!.upperBound...].dropLast())
        // "T5, ", "T7 (mutexes: write M0)": the thread's name alone.
        if let held = thread.range(of: " (") { thread = String(thread[..<held.lowerBound]) }
        if let comma = thread.firstIndex(of: ",") { thread = String(thread[..<comma]) }
        if thread.hasPrefix("thread ") { thread = String(thread.dropFirst("thread ".count)) }
        return Access(isWrite: isWrite, thread: thread, isPrevious: isPrevious, frames: [])
    }

    /// One frame line, in either dialect TSan prints:
    /// - Linux, `llvm-symbolizer`: `#0 $s4main3fooyyF /path/File.swift:18:24 (binary+0x…) (BuildId: …)`
    ///   (a mangled name, a full path with line and column, or `<null>`);
    /// - Darwin, `atos`: `#0 closure #1 in Foo.bar() File.swift:18 (Tests:arm64+0x…)` (a demangled
    ///   name with spaces, the file's name alone, `<null>`, `<null>:N` whose N is no line, or
    ///   `<compiler-generated>`). With `llvm-symbolizer` on Darwin, full paths as on Linux.
    static func frame(_ line: String) -> Frame? {
        guard line.hasPrefix("#"), let space = line.firstIndex(of: " ") else { return nil }
        var rest = line[line.index(after: space)...].trimmingCharacters(in: .whitespaces)
        // Trailing "(BuildId: …)" and "(image+0x…)" / "(image:arch+0x…)".
        while rest.hasSuffix(")"), let open = rest.range(of: " (", options: .backwards),
              rest[open.upperBound...].hasPrefix("BuildId:") || rest[open.upperBound...].contains("+0x") {
            rest = String(rest[..<open.lowerBound])
        }
        // The location is the last part: a path (which may hold spaces) starts at the first " /";
        // otherwise it is the last word.
        let split = rest.range(of: " /") ?? rest.range(of: " ", options: .backwards)
        guard let split else { return nil }
        let symbol = String(rest[..<split.lowerBound])
        let location = String(rest[rest.index(after: split.lowerBound)...])
        guard !symbol.isEmpty else { return nil }
        if location.hasPrefix("<") { return Frame(symbol: symbol, file: nil, line: nil, column: nil) }
        // "path:line:column", "path:line" or "path": numbers are taken from the end.
        var pieces = location.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        var numbers: [Int] = []
        while pieces.count > 1, numbers.count < 2, let number = Int(pieces[pieces.count - 1]) {
            numbers.insert(number, at: 0)
            pieces.removeLast()
        }
        let file = pieces.joined(separator: ":")
        guard file.contains("/") || file.contains(".") else { return Frame(symbol: symbol, file: nil, line: nil, column: nil) }
        return Frame(symbol: symbol, file: file, line: numbers.first, column: numbers.count > 1 ? numbers[1] : nil)
    }

    /// What kind of thread a creation stack starts: Foundation's `Thread` (the tests' own threads)
    /// or libdispatch's worker pool.
    static func threadKind(creatorFrame frame: Frame) -> String? {
        // Foundation's `Thread`: `_CFThreadCreate` (Linux), `-[NSThread start…]` (Darwin).
        if frame.symbol.contains("_CFThreadCreate") || frame.symbol.contains("Foundation6Thread")
            || frame.symbol.contains("NSThread") { return "a test thread" }
        if frame.symbol.contains("dispatch") { return "a GCD worker thread" }
        if frame.symbol.contains("pthread_create") { return nil }
        return nil
    }

    /// Whether any frame of the report names a source file: a report symbolized without debug
    /// information (Darwin's `atos` on a stripped or unindexed binary) names none.
    var namesAnyFile: Bool { allFrames.contains { $0.file != nil } }

    /// The "SUMMARY:" line, if the report has one.
    package var summaryLine: String? {
        raw.split(separator: "\n").first { $0.hasPrefix("SUMMARY:") }.map(String.init)
    }
}

import Foundation
import WorkbookWire

/// Everything one run of the test binary left behind.
public struct RunArtifacts: Sendable {
    public var events: EventStream
    public var reports: [TSanReport]
    public var termination: Termination
    /// The console output (capped); read only for crash messages, never for verdicts.
    public var output: String
    public var seconds: Double
    /// When the process started, for what the system writes about it afterwards (a Darwin crash report).
    public var started: Date?

    public init(events: EventStream, reports: [TSanReport], termination: Termination, output: String, seconds: Double = 0) {
        self.events = events
        self.reports = reports
        self.termination = termination
        self.output = output
        self.seconds = seconds
    }
}

/// Turns a run's structured results into verdicts per exercise. Pure: no processes, no clock.
public struct Grader: Sendable {
    /// Which code was graded: the learner's exercises or the solutions.
    public var sources: SourceSet
    /// Reads a source file (to recognise races TSan cannot judge); `nil` when unreadable.
    public var readSource: @Sendable (String) -> String?

    public init(sources: SourceSet = .exercises,
                readSource: @escaping @Sendable (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }) {
        self.sources = sources
        self.readSource = readSource
    }

    /// The outcome of grading one batch.
    public struct Outcome: Sendable {
        /// Exercises whose verdict this run settles.
        public var verdicts: [ExerciseVerdict]
        /// Exercises this run cannot settle (the process died, or a report names none of the
        /// batch's files): run each of them again on its own.
        public var isolate: [(chapter: Chapter, exercise: Exercise)]
    }

    /// Grades the exercises of `batch` from one run's artifacts.
    public func grade(_ batch: [(chapter: Chapter, exercise: Exercise)], _ run: RunArtifacts) -> Outcome {
        let alone = batch.count == 1
        var findings: [String: [Finding]] = [:]
        var unattributed: [TSanReport] = []

        if let fatal = Self.sanitizerFailure(in: run.output) {
            let verdicts = batch.map { item in
                ExerciseVerdict(chapter: item.chapter, exercise: item.exercise,
                                findings: [Finding(kind: .crash, message: fatal.message, detail: fatal.detail)],
                                testsRun: 0, testsFailed: 0, seconds: run.seconds)
            }
            return Outcome(verdicts: verdicts, isolate: [])
        }

        var notes: [String: [String]] = [:]
        for report in run.reports {
            if let (item, note) = falseAlarm(report, batch) {
                if !notes[item.exercise.id, default: []].contains(note) { notes[item.exercise.id, default: []].append(note) }
            } else if let (item, finding) = raceFinding(report, batch) {
                var mine = findings[item.exercise.id, default: []]
                // TSan reports each pair of stacks once; the same two lines often race from several
                // pairs of threads. Say it once, and how often.
                if let index = mine.firstIndex(where: { $0.kind == .race && $0.sameRace(as: finding) }) {
                    mine[index].absorb(finding)
                } else {
                    mine.append(finding)
                }
                findings[item.exercise.id] = mine
            } else {
                unattributed.append(report)
            }
        }
        for issue in run.events.issues {
            guard let item = owner(of: issue.testID, in: batch) else { continue }
            findings[item.exercise.id, default: []].append(Finding(
                kind: issue.kind,
                message: Self.strippingMarker(issue.summary),
                file: issue.file.map(Layout.trimmed), line: issue.line,
                test: run.events.names[issue.testID],
                detail: issue.messages.joined(separator: "\n")))
        }

        let processDied = !run.events.runEnded || run.termination.exitCode == nil
        var verdicts: [ExerciseVerdict] = []
        var isolate: [(chapter: Chapter, exercise: Exercise)] = []
        for item in batch {
            let tests = run.events.started.filter { isTest($0) && owner(of: $0, in: [item]) != nil }
            let ended = tests.filter { run.events.ended[$0] != nil }
            let failed = ended.filter { run.events.ended[$0] == false }
            var found = findings[item.exercise.id] ?? []
            let unfinished = tests.filter { run.events.ended[$0] == nil }

            if processDied && (tests.isEmpty || !unfinished.isEmpty) {
                guard alone else { isolate.append(item); continue }
                found.append(deathFinding(run, unfinished: unfinished.map { run.events.names[$0] ?? $0 }))
            } else if !unattributed.isEmpty && !alone {
                isolate.append(item); continue
            } else if !unattributed.isEmpty {
                found += unattributed.map { report in
                    Finding(kind: .race,
                            message: report.namesAnyFile ? Says.raceOutsideFile(report.title, item.exercise)
                                                         : Says.raceUnsymbolized(report.title, item.exercise),
                            detail: report.raw)
                }
            }
            if tests.isEmpty && found.isEmpty {
                found.append(Finding(kind: .crash, message: Says.suiteNotFound(item.chapter, item.exercise)))
            }
            var verdict = ExerciseVerdict(
                chapter: item.chapter, exercise: item.exercise, findings: found,
                testsRun: ended.count, testsFailed: failed.count, seconds: run.seconds)
            verdict.notes = notes[item.exercise.id] ?? []
            verdicts.append(verdict)
        }
        return Outcome(verdicts: verdicts, isolate: isolate)
    }

    // MARK: Races

    /// Builds the learner's finding for a report that names a file of the batch.
    func raceFinding(_ report: TSanReport, _ batch: [(chapter: Chapter, exercise: Exercise)])
        -> ((chapter: Chapter, exercise: Exercise), Finding)?
    {
        // The access frames first (they are where the race is), then any frame of the report.
        let frames = report.accesses.flatMap(\.frames) + report.allFrames
        for frame in frames {
            guard let file = frame.file, let item = batch.first(where: { frame.isIn(suffix(of: $0)) }) else { continue }
            let path = Layout.exerciseFile(item.chapter, item.exercise, in: sources)
            // Symbolizing sometimes loses an access's line; the same function's line elsewhere in the
            // report, or the other access's line, stands in for it.
            let known = report.allFrames.filter { $0.isIn(suffix(of: item)) && $0.line != nil }
            let accesses = report.accesses.map { access -> (TSanReport.Access, Int?) in
                let mine = access.frames.first { $0.isIn(suffix(of: item)) }
                let line = mine?.line ?? mine.flatMap { frame in known.first { $0.symbol == frame.symbol }?.line }
                return (access, line)
            }
            let line = accesses.compactMap(\.1).first ?? frame.line ?? known.first?.line
            // Darwin's atos names the file without its folder: then read it where the workbook keeps it.
            let source = readSource(file.contains("/") ? file : path)
            let accessLines = accesses.filter(\.0.isWrite).compactMap(\.1) + accesses.filter { !$0.0.isWrite }.compactMap(\.1)
            let variable = Self.variableName(inLines: accessLines + (line.map { [$0] } ?? []), of: source)
            let what = variable.map { "`\($0)`" } ?? "the same memory"
            let writes = report.accesses.filter(\.isWrite).count
            let verb = writes == report.accesses.count ? "changed" : (writes == 0 ? "read" : "used (at least one of them changing)")
            let places = accesses.map { access, line in
                "\(item.exercise.file)\(line.map { ":\($0)" } ?? "") (\(access.isWrite ? "write" : "read"), \(Self.describeThread(access.thread, report)))"
            }
            let message = Says.race(verb: verb, what: what, places: places)
            return (item, Finding(kind: .race, message: message, file: path, line: line, detail: report.raw))
        }
        return nil
    }

    /// A report TSan cannot judge: every access it names in the learner's file sits inside a
    /// `Mutex.withLock` closure. On Linux TSan does not see `Mutex` (its `withLock` is inlined and
    /// no frame names it), so such a report says nothing about the learner's code; the verdict then
    /// rests on the tests' results, and the learner gets a note instead of a race.
    func falseAlarm(_ report: TSanReport, _ batch: [(chapter: Chapter, exercise: Exercise)])
        -> ((chapter: Chapter, exercise: Exercise), String)?
    {
        for item in batch {
            let lines = report.accesses.compactMap { access in
                access.frames.first { $0.isIn(suffix(of: item)) }
            }
            guard lines.count == report.accesses.count, let file = lines.first?.file else { continue }
            let source = readSource(file.contains("/") ? file : Layout.exerciseFile(item.chapter, item.exercise, in: sources))
            guard lines.allSatisfy({ frame in frame.line.map { Self.isInsideWithLock(line: $0, of: source) } ?? false }) else { continue }
            return (item, Says.mutexFalseAlarm(lines.compactMap(\.line).map { "\(item.exercise.file):\($0)" }))
        }
        return nil
    }

    private func suffix(of item: (chapter: Chapter, exercise: Exercise)) -> String {
        "/" + Layout.exerciseFile(item.chapter, item.exercise, in: sources)
    }

    static func describeThread(_ thread: String, _ report: TSanReport) -> String {
        if thread == "main thread" { return "the main thread" }
        return report.threadKinds[thread].map { "thread \(thread), \($0)" } ?? "thread \(thread)"
    }

    /// The variable a line assigns or reads, as a best guess: `toComplete -= 1` → `toComplete`.
    static func variableName(inLine line: Int, of source: String?) -> String? {
        guard let source else { return nil }
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return nil }
        let text = lines[line - 1].trimmingCharacters(in: .whitespaces)
        func name(_ expression: Substring) -> String? {
            // `self.items[key]` → `items`; `{ count` → `count`.
            var lhs = expression.split(separator: " ").last.map(String.init) ?? ""
            if let bracket = lhs.firstIndex(of: "[") { lhs = String(lhs[..<bracket]) }
            let name = lhs.split(separator: ".").last.map(String.init) ?? lhs
            return !name.isEmpty && name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) ? name : nil
        }
        for op in [" += ", " -= ", " *= ", " /= ", " = "] {
            if let range = text.range(of: op), let found = name(text[..<range.lowerBound]) { return found }
        }
        // A mutating call: `items.append(x)`, `flags.toggle()`, `cache.removeValue(forKey: k)`.
        for method in [".append(", ".insert(", ".remove(", ".removeAll(", ".removeFirst(", ".removeLast(",
                       ".removeValue(", ".updateValue(", ".toggle(", ".formUnion(", ".sort("] {
            if let range = text.range(of: method), let found = name(text[..<range.lowerBound]) { return found }
        }
        return nil
    }

    /// The variable a report is about: the first of its access lines (writes first) that names one.
    static func variableName(inLines lines: [Int], of source: String?) -> String? {
        lines.lazy.compactMap { variableName(inLine: $0, of: source) }.first
    }

    /// `true` when `line` sits inside a `withLock { … }` closure, judged by the braces before it.
    static func isInsideWithLock(line: Int, of source: String?) -> Bool {
        guard let source else { return false }
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return false }
        var depth = 0
        for index in stride(from: line - 1, through: 0, by: -1) {
            let text = index == line - 1 ? "" : String(lines[index])
            for character in text.reversed() {
                if character == "}" { depth += 1 }
                if character == "{" {
                    if depth == 0 {
                        if text.contains("withLock") { return true }
                    } else {
                        depth -= 1
                    }
                }
            }
            if index == line - 1, lines[index].contains("withLock") { return true }
        }
        return false
    }

    // MARK: Deaths and crashes

    func deathFinding(_ run: RunArtifacts, unfinished: [String]) -> Finding {
        let during = unfinished.isEmpty ? "" : " during “\(unfinished.joined(separator: "”, “"))”"
        let tail = Self.tail(of: run.output)
        switch run.termination {
        case let .timedOut(seconds, quiet):
            let how = quiet.map { "made no progress for \(Int($0)) s" } ?? "did not finish within \(Int(seconds)) s"
            return Finding(kind: .hang,
                           message: Says.stopped(how, during: during),
                           detail: tail)
        case let .signaled(signal):
            return Finding(kind: .crash,
                           message: Says.crashed(signal, during: during, trap: Self.crashMessage(in: run.output)),
                           detail: tail)
        case let .exited(code):
            return Finding(kind: .crash,
                           message: Says.stoppedEarly(code, during: during, trap: Self.crashMessage(in: run.output)),
                           detail: tail)
        }
    }

    /// The most telling line of a crash: libdispatch's "BUG IN CLIENT", Swift's "Fatal error", a trap.
    static func crashMessage(in output: String) -> String? {
        if output.contains("ThreadSanitizer:DEADLYSIGNAL") {
            return Says.segvUnderTSan
        }
        let lines = output.split(separator: "\n")
        for needle in Trap.outputNeedles {
            if let line = lines.first(where: { $0.contains(needle) }) {
                return String(line.trimmingCharacters(in: .whitespaces).prefix(300))
            }
        }
        return nil
    }

    /// A fatal start-up failure of the sanitizer itself, said with its fix.
    static func sanitizerFailure(in output: String) -> (message: String, detail: String)? {
        if output.contains("ThreadSanitizer: unexpected memory mapping") {
            return (Says.sanitizerMemoryMapping, tail(of: output))
        }
        if output.contains("FATAL: ThreadSanitizer") {
            return (Says.sanitizerFatal, tail(of: output))
        }
        return nil
    }

    static func tail(of output: String, lines count: Int = 40) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false).suffix(count).joined(separator: "\n")
    }

    static func strippingMarker(_ text: String) -> String {
        guard let marker = FailureMarker.opening(text) else { return text }
        return String(text.dropFirst(marker.text.count)).trimmingCharacters(in: .whitespaces)
    }

    // MARK: Tests and exercises

    /// A test function's ID (`Module.Suite/name()/File.swift:7:6`), not a suite's.
    private func isTest(_ id: String) -> Bool { id.contains("/") }

    private func owner(of testID: String, in batch: [(chapter: Chapter, exercise: Exercise)])
        -> (chapter: Chapter, exercise: Exercise)?
    {
        batch.first { item in
            let prefix = "\(item.chapter.testModule).\(item.exercise.suite)"
            return testID == prefix || testID.hasPrefix(prefix + "/") || testID.hasPrefix(prefix + ".")
        }
    }
}

extension Termination {
    /// The exit status, if the process exited by itself.
    public var exitCode: Int32? {
        if case let .exited(code) = self { return code }
        return nil
    }
}

import Foundation

/// Races: a report placed at the learner's lines, and reports TSan cannot judge.
extension Grader {
    /// Builds the learner's finding for a report that names a file of the batch.
    ///
    /// `sawWrong`: the exercises (by ID) whose tests failed an expectation in the same run. A report
    /// on the tests' own data (both accesses made by test code, the learner's code deeper in a stack:
    /// a callback it called, a block it sent) is a lost ordering of what the learner's code promised.
    /// When the tests saw it go wrong too, that is the learner's wrong result (`orderingFinding`);
    /// when only the Thread Sanitizer saw it — a relaxed atomic that counts right but orders nothing
    /// — it is the learner's data race, placed at their lines in the stacks.
    func raceFinding(_ report: TSanReport, _ batch: [ExerciseRef],
                     sawWrong: Set<String> = [])
        -> (ExerciseRef, Finding)?
    {
        // The access frames first (they are where the race is), then any frame of the report.
        let frames = report.accesses.flatMap(\.frames) + report.allFrames
        for frame in frames {
            guard let file = frame.file, let item = batch.first(where: { frame.isIn(suffix(of: $0)) }) else { continue }
            // Both accesses made by the tests' own code (their data, read in a callback the learner's
            // code called), and the tests saw the result go wrong: a lost ordering, said as such.
            if sawWrong.contains(item.exercise.id), !report.accesses.isEmpty,
               report.accesses.allSatisfy({ Self.madeByTests($0, not: suffix(of: item)) }) { return nil }
            let path = Layout.exerciseFile(item.chapter, item.exercise, in: sources)
            // Darwin's atos names the file without its folder: then read it where the workbook keeps it.
            let source = readSource(file.contains("/") ? file : path)
            let placed = RaceSides(report, in: suffix(of: item), source: source)
            // In the order TSan saw them, as `explain` draws them: the remembered access first.
            let accesses = placed.inOrder.map { ($0, $0.line) }
            let located = placed.inOrder.first { $0.line != nil }
            let line = located?.line ?? frame.line
                ?? report.allFrames.first { $0.isIn(suffix(of: item)) && $0.line != nil }?.line
            let variable = placed.variable ?? Self.variableName(inLines: placed.accessLines + (line.map { [$0] } ?? []), of: source)
            let places = accesses.map { access, line in
                let place = line.map { ":\($0)" } ?? access.function.map { ", in \($0.name)" } ?? ""
                return "\(item.exercise.file)\(place) (\(access.isWrite ? "write" : "read"), \(Self.describeThread(access.thread, report)))"
            }
            let writes = report.accesses.filter(\.isWrite).count
            let message = Says.race(writes: writes, of: report.accesses.count, variable: variable, places: places)
            var finding = Finding(kind: .race, message: message, file: path, line: line, detail: report.raw)
            finding.report = report
            finding.column = located?.column
            finding.summary = Says.raceSummary(writes: writes, of: report.accesses.count, variable: variable,
                                               lines: placed.sides.compactMap(\.line))
            return (item, finding)
        }
        return nil
    }

    /// A report whose every access sits in the exercise's suite: TSan saw the test's own plain data
    /// — written before a call into the learner's code, read in the code that call leads to (a
    /// completion after every callback, a block after the call that sent it) — with nothing ordering
    /// the write before the read. The learner's code owns no line of it; what it broke is the
    /// happens-before edge its contract promises, so the finding is a wrong result (a lost ordering),
    /// placed at the test's read and named after the test (`testNames`: display names by test ID).
    /// An access may also sit in a helper the chapter's suites share (`LatchTestSupport.swift`) when
    /// the learner's code is in the report's stacks: it called the code that made the access.
    func orderingFinding(_ report: TSanReport, _ batch: [ExerciseRef],
                         testNames: [String: String]) -> (ExerciseRef, Finding)?
    {
        for item in batch {
            let suite = Layout.suiteFile(item.chapter, item.exercise)
            // Every frame placed is in the chapter's test folder: the suite, its `+` files, a shared helper.
            let chapterTests = "/" + Layout.testFolder(item.chapter) + "/"
            let learnerCalled = report.allFrames.contains { $0.isIn(suffix(of: item)) }
            let placed = report.accesses.compactMap { access -> (TSanReport.Access, TSanReport.Frame)? in
                let tests = access.frames.filter { frame in
                    Self.isInSuite(frame, of: item.exercise, suiteFile: suite)
                        || learnerCalled && frame.file?.contains(chapterTests) == true
                }
                // The topmost with a line: a closure's own frame often has none.
                return (tests.first { $0.line != nil } ?? tests.first).map { (access, $0) }
            }
            guard !placed.isEmpty, placed.count == report.accesses.count else { continue }
            let places = placed.map { access, frame in
                "\(Self.fileName(frame)):\(frame.line.map(String.init) ?? "?") (\(access.isWrite ? "write" : "read"), \(Self.describeThread(access.thread, report)))"
            }
            let read = (placed.first { !$0.0.isWrite } ?? placed[0]).1
            let test = testNames.first { id, _ in
                guard SuiteID(item.chapter, item.exercise).hasTest(id) else { return false }
                let function = TestID(id).functionName ?? ""
                return report.accesses.flatMap(\.frames).contains { $0.symbol.contains("\(item.exercise.suite).\(function)(") }
            }?.value
            var finding = Finding(kind: .wrong, message: Says.orderingLost(places: places, exercise: item.exercise),
                                  file: Layout.testFolder(item.chapter) + "/" + Self.fileName(read), line: read.line, test: test, detail: report.raw)
            finding.column = read.column
            return (item, finding)
        }
        return nil
    }

    /// A report TSan cannot judge: both accesses it names in the learner's file sit inside the
    /// `withLock` of one and the same `Mutex`, declared as one in that file. On Linux TSan sees a
    /// `Mutex`'s uncontended lock and unlock (inlined into the learner's module) but not the hand-off
    /// when threads contend for it (a `futex`, in the uninstrumented library; MEASUREMENTS.md M5),
    /// so such a report says nothing about the learner's code; the verdict then rests on the tests'
    /// results, and the learner gets a note instead of a race. Nothing else is excused: an `NSLock`'s
    /// `withLock` is seen whole by TSan, and two accesses under two different locks really race.
    func falseAlarm(_ report: TSanReport, _ batch: [ExerciseRef])
        -> (ExerciseRef, String)?
    {
        for item in batch {
            // Each access's first frame in the learner's file that has a line: a closure's own frame
            // often has none, and the frame below it is then the line that calls `withLock`.
            let lines = report.accesses.compactMap { access in
                access.frames.first { $0.isIn(suffix(of: item)) && $0.line != nil }
            }
            guard report.accesses.count == 2, lines.count == 2, let file = lines.first?.file else { continue }
            let source = readSource(file.contains("/") ? file : Layout.exerciseFile(item.chapter, item.exercise, in: sources))
            let mutexes = lines.map { frame in frame.line.flatMap { Self.guardingMutex(line: $0, of: source) } }
            guard let mutex = mutexes[0], mutexes[1] == mutex else { continue }
            return (item, Says.mutexFalseAlarm(mutex, lines.compactMap(\.line).map { "\(item.exercise.file):\($0)" }))
        }
        return nil
    }

    /// The name of a frame's file, without its folder.
    static func fileName(_ frame: TSanReport.Frame) -> String {
        ((frame.file ?? "?") as NSString).lastPathComponent
    }

    /// Whether `frame` is in one of the files of `exercise`'s suite: `<Suite>.swift` (`suiteFile`), or
    /// a `<Suite>+<part>.swift` beside it.
    static func isInSuite(_ frame: TSanReport.Frame, of exercise: Exercise, suiteFile: String) -> Bool {
        guard let file = frame.file else { return false }
        if frame.isIn("/" + suiteFile) { return true }
        let folder = (suiteFile as NSString).deletingLastPathComponent
        let name = (file as NSString).lastPathComponent
        return name.hasPrefix(exercise.suite + "+") && name.hasSuffix(".swift")
            && (!file.contains("/") || file.contains("/" + folder + "/"))
    }

    /// Whether an access was made by the tests' code rather than the learner's: its first frame in a
    /// file of the package's is in `Tests/` (a suite, or the test support), not in the learner's file
    /// (`learner`, a path suffix).
    static func madeByTests(_ access: TSanReport.Access, not learner: String) -> Bool {
        guard let first = access.frames.first(where: { frame in
            guard let file = frame.file else { return false }
            return frame.isIn(learner) || file.contains("/\(Layout.testsFolder)/")
        }) else { return false }
        return !first.isIn(learner)
    }

    private func suffix(of item: ExerciseRef) -> String {
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

    /// The `Mutex` whose `withLock` closure holds `line` of `source`: the receiver of a
    /// `name.withLock` call on the line itself (a one-line closure, or the call a closure's frame
    /// without a line of its own is placed at), else of the innermost `{` still open above the line
    /// — when the file declares `name` a `Mutex` (`let name = Mutex(…)`, `let name: Mutex<…>`).
    /// `nil` for anything else, an `NSLock`'s `withLock` among it.
    static func guardingMutex(line: Int, of source: String?) -> String? {
        guard let source else { return nil }
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard line >= 1, line <= lines.count else { return nil }
        func receiver(_ text: String) -> String? {
            text.firstMatch(of: /([A-Za-z_][A-Za-z0-9_]*)\s*\.withLock\b/).map { String($0.1) }
        }
        var name = receiver(lines[line - 1])
        if name == nil {
            var depth = 0
            search: for index in stride(from: line - 2, through: 0, by: -1) {
                for character in lines[index].reversed() {
                    if character == "}" { depth += 1 }
                    if character == "{" {
                        if depth == 0 { name = receiver(lines[index]); break search }
                        depth -= 1
                    }
                }
            }
        }
        guard let name else { return nil }
        let declared = #"\b(let|var)\s+"# + name + #"\s*(:\s*(Synchronization\.)?Mutex\s*<|=\s*(Synchronization\.)?Mutex\s*(<[^>]*>)?\s*\()"#
        return source.range(of: declared, options: .regularExpression) != nil ? name : nil
    }
}

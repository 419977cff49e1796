/// One thing that went wrong in an exercise, said for a learner.
struct Finding: Sendable, Equatable, Codable {
    var kind: FailureKind
    /// One or two sentences in plain words.
    var message: String
    /// The file the learner should look at (their exercise file when known), relative to the package.
    var file: String?
    var line: Int?
    /// The column on `line`, when known (TSan's, the compiler's, the test's).
    var column: Int?
    /// The lines of source the compiler printed under its error, as it printed them.
    var excerpt: [String]?
    /// One sentence that says it, the same for the same failure from run to run (a race's, without
    /// the threads' numbers); `nil`: the message's first sentence.
    var summary: String?
    /// The test that found it, by its display name.
    var test: String?
    /// The raw evidence (a TSan report, compiler output, the end of a crash's output), for `--verbose`.
    var detail: String?
    /// How many more reports said the same (races reported from several pairs of threads, or other
    /// tests that crashed when one crash was located).
    var repeats = 0
    /// Other lines of the same file that further reports named.
    var otherLines: [Int] = []

    public init(kind: FailureKind, message: String, file: String? = nil, line: Int? = nil,
                test: String? = nil, detail: String? = nil) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
        self.test = test
        self.detail = detail
    }

    /// `true` when both findings are races in the same file.
    func sameRace(as other: Finding) -> Bool {
        kind == other.kind && file == other.file
    }

    /// Folds a further report of the same race into this finding.
    mutating func absorb(_ other: Finding) {
        repeats += 1
        if let line = other.line, line != self.line, !otherLines.contains(line) {
            otherLines.append(line)
            otherLines.sort()
        }
    }

    /// "Exercises/Chapter1Latch/CountdownBlock.swift:18", or `nil`.
    var location: String? {
        guard let file else { return nil }
        return line.map { "\(file):\($0)" } ?? file
    }
}

/// The grade of one exercise in one run.
struct ExerciseVerdict: Sendable, Equatable {
    var chapter: Chapter
    var exercise: Exercise
    var findings: [Finding]
    /// How many of its tests ran, and how many of those failed.
    var testsRun: Int
    var testsFailed: Int
    /// Seconds the run that graded it took (shared by every exercise graded in the same process).
    var seconds: Double
    /// What the learner should know although it does not fail the exercise (a TSan report that TSan
    /// cannot judge, for one).
    var notes: [String] = []

    public init(chapter: Chapter, exercise: Exercise, findings: [Finding], testsRun: Int, testsFailed: Int, seconds: Double = 0) {
        self.chapter = chapter
        self.exercise = exercise
        self.findings = findings
        self.testsRun = testsRun
        self.testsFailed = testsFailed
        self.seconds = seconds
    }

    var passed: Bool { findings.isEmpty && testsRun > 0 && testsFailed == 0 }

    /// The kind a learner must deal with first (compile, race, crash, hang, wrong).
    var kind: FailureKind? { passed ? nil : (findings.headline?.kind ?? .wrong) }

    /// The same verdict with its crash finding pointed at the learner's line and the trapping call.
    /// `test`: the display name of the test that crashed this way, when known.
    func locatingCrash(_ stack: CrashStack, test: String? = nil) -> ExerciseVerdict {
        var copy = self
        guard let index = copy.findings.firstIndex(where: { $0.kind == .crash && (test == nil || $0.test == test) })
                ?? copy.findings.firstIndex(where: { $0.kind == .crash }) else { return self }
        if !stack.frames.isEmpty {
            copy.findings[index].detail = "Backtrace of the crashing thread (\(stack.source)):\n" + stack.frames.joined(separator: "\n")
        }
        if let file = stack.file {
            copy.findings[index].file = Layout.trimmed(file)
            copy.findings[index].line = stack.line
        }
        if let reason = stack.reason {
            copy.findings[index].message = Says.crashLocated(line: stack.line, of: exercise.file, reason: reason)
            // The other crashes of this exercise only guessed at a cause; this one is known.
            let located = copy.findings[index]
            let others = copy.findings.filter { $0.kind == .crash && $0 != located }.count
            copy.findings.removeAll { $0.kind == .crash && $0 != located }
            if let kept = copy.findings.firstIndex(of: located) { copy.findings[kept].repeats += others }
        }
        return copy
    }
}

extension Array where Element == Finding {
    /// The finding a learner must deal with first: the lowest kind (compile, race, crash, hang, wrong).
    var headline: Finding? { self.min { $0.kind < $1.kind } }
}

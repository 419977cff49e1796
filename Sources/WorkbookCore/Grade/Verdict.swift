/// One thing that went wrong in an exercise, said for a learner.
package struct Finding: Sendable, Equatable, Codable {
    package var kind: FailureKind
    /// One or two sentences in plain words.
    package var message: String
    /// The file the learner should look at (their exercise file when known), relative to the package.
    package var file: String?
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
    /// Where that test is declared in its suite: the order the suite lists its tests in.
    var testDeclared: SourcePlace?
    /// The raw evidence (a TSan report, compiler output, the end of a crash's output), for `--verbose`.
    var detail: String?
    /// The parsed TSan report a race was found in: what `explain` draws, never parsed again from
    /// `detail` (which keeps its text for `--verbose`).
    package var report: TSanReport?
    /// How many more reports said the same (races reported from several pairs of threads, or other
    /// tests that crashed when one crash was located).
    var repeats = 0
    /// Other lines of the same file that further reports named.
    var otherLines: [Int] = []

    package init(kind: FailureKind, message: String, file: String? = nil, line: Int? = nil,
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
    package var location: String? {
        guard let file else { return nil }
        return line.map { "\(file):\($0)" } ?? file
    }
}

/// The grade of one exercise in one run.
package struct ExerciseVerdict: Sendable, Equatable {
    package var chapter: Chapter
    package var exercise: Exercise
    package var findings: [Finding]
    /// How many of its tests ran, and how many of those failed.
    var testsRun: Int
    var testsFailed: Int
    /// Seconds its suite ran in the run that graded it, from the event stream; the whole run's
    /// seconds when the stream does not say (a process that died before its suite started).
    package var seconds: Double
    /// What the learner should know although it does not fail the exercise (a TSan report that TSan
    /// cannot judge, for one).
    package var notes: [String] = []

    package init(chapter: Chapter, exercise: Exercise, findings: [Finding], testsRun: Int, testsFailed: Int, seconds: Double = 0) {
        self.chapter = chapter
        self.exercise = exercise
        self.findings = findings
        self.testsRun = testsRun
        self.testsFailed = testsFailed
        self.seconds = seconds
    }

    package var passed: Bool { findings.isEmpty && testsRun > 0 && testsFailed == 0 }

    /// The kind a learner must deal with first (compile, race, crash, hang, wrong).
    package var kind: FailureKind? { passed ? nil : (findings.headline?.kind ?? .wrong) }

    /// Whether this verdict catches a wrong answer as `expected`: its first failure is that kind —
    /// and, for a race, a race was reported in the exercise's own file (not in the test's code).
    package func isCaught(as expected: FailureKind) -> Bool {
        guard kind == expected else { return false }
        if expected == .race {
            return findings.contains { $0.kind == .race && $0.file?.hasSuffix("/" + exercise.file) == true }
        }
        return true
    }

    /// Whether a starter is caught as its manifest says (``Exercise/expectedFailure``).
    package var isCaughtAsExpected: Bool { isCaught(as: exercise.expectedFailure) }

    /// The same verdict with its crash finding pointed at the learner's line and the trapping call.
    /// `test`: the display name of the test that crashed this way, when known.
    package func locatingCrash(_ stack: CrashStack, test: String? = nil) -> ExerciseVerdict {
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

/// A place in a source file: what orders tests as their suite declares them.
struct SourcePlace: Sendable, Equatable, Codable, Comparable {
    var file: String
    var line: Int
    var column: Int

    /// Where a test ID (`Module.Suite/name()/File.swift:7:6`) says its test is declared.
    init?(testID: String) {
        guard let place = testID.split(separator: "/").last, let match = place.wholeMatch(of: /(.+):(\d+):(\d+)/),
              let line = Int(match.2), let column = Int(match.3) else { return nil }
        self.init(file: String(match.1), line: line, column: column)
    }

    init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    static func < (lhs: SourcePlace, rhs: SourcePlace) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }

    /// Whether test `lhs` comes before test `rhs` (both IDs) in their suite; IDs that say no place
    /// come last, by name.
    static func declaredFirst(_ lhs: String, _ rhs: String) -> Bool {
        switch (SourcePlace(testID: lhs), SourcePlace(testID: rhs)) {
        case let (left?, right?): left < right || (left == right && lhs < rhs)
        case (.some, nil): true
        case (nil, .some): false
        case (nil, nil): lhs < rhs
        }
    }
}

extension Finding {
    /// The order a learner meets findings in, the same whichever test failed first in time: by kind
    /// (compile, race, crash, hang, wrong), then by the order the suite declares its tests (a
    /// finding of no test after those of tests), then by place and words.
    static func precedes(_ lhs: Finding, _ rhs: Finding) -> Bool {
        if lhs.kind != rhs.kind { return lhs.kind < rhs.kind }
        if lhs.testDeclared != rhs.testDeclared {
            guard let left = lhs.testDeclared else { return false }
            guard let right = rhs.testDeclared else { return true }
            return left < right
        }
        return (lhs.file ?? "", lhs.line ?? 0, lhs.column ?? 0, lhs.oneSentence, lhs.message)
            < (rhs.file ?? "", rhs.line ?? 0, rhs.column ?? 0, rhs.oneSentence, rhs.message)
    }
}

extension Array where Element == Finding {
    /// The findings in the order a learner meets them (``Finding/precedes(_:_:)``).
    var inTeachingOrder: [Finding] { sorted(by: Finding.precedes) }

    /// The finding a learner must deal with first: the lowest kind (compile, race, crash, hang,
    /// wrong), and of those the first test the suite declares — whichever failed first in time.
    package var headline: Finding? { self.min(by: Finding.precedes) }
}

import Foundation
import WorkbookCore
import WorkbookEngine

/// One thing `selftest --static` found in an exercise's pieces.
package struct StaticFinding: Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
        /// A piece is missing, or does not match another: the check fails.
        case problem
        /// A piece is there but still says `TODO` (as `workbook new` writes it): listed, and the
        /// check still passes — but the full selftest and the engine's unit tests do not.
        case toDo
    }

    package var kind: Kind
    /// The file, relative to the package root.
    package var file: String
    /// Its line (from 1), when one is known.
    package var line: Int?
    package var column: Int?
    package var sentence: String

    package init(_ kind: Kind, _ file: String, line: Int? = nil, column: Int? = nil, _ sentence: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.sentence = sentence
    }

    /// `Exercises/Chapter5BuggyCounter/chapter.json:120:7: error: …`, as compilers write it, so that
    /// an editor's problem matcher reads it.
    package var description: String {
        let place = [file] + [line, line.map { _ in column ?? 1 }].compactMap { $0.map(String.init) }
        return place.joined(separator: ":") + (kind == .problem ? ": error: " : ": warning: ") + sentence
    }
}

/// `selftest --static`: every piece of every exercise is where the manifest says and matches its
/// counterparts — manifest ↔ starter ↔ kept copy ↔ solution ↔ suite ↔ hints ↔ dimensions ↔ lesson
/// and its samples ↔ recorded reports ↔ near misses — read from the files alone, with no build. The
/// engine's unit tests hold the workbook to it too (`StaticCheckTests`), and the full selftest runs it
/// first.
package struct StaticCheck: Sendable {
    package var workbook: Workbook
    package var chapters: [Chapter]

    /// The steps of every hint ladder, in order.
    package static let hintSteps = ["Question", "Direction", "Shape"]
    /// What marks a piece still to write.
    package static let toDoMarker = "TODO"

    package init(workbook: Workbook, chapters: [Chapter]? = nil) {
        self.workbook = workbook
        self.chapters = chapters ?? workbook.chapters
    }

    /// Everything found, chapter by chapter, then the recordings and the near misses.
    package func run() -> [StaticFinding] {
        let perChapter: [(Chapter) -> [StaticFinding]] = [manifest, files, starterCopies, suites, hints, dimensions, lesson, toDos]
        return chapters.flatMap { chapter in perChapter.flatMap { $0(chapter) } } + recordings() + corpus()
    }

    // MARK: Reading

    private var layout: Layout { workbook.layout }

    private func text(_ path: String) -> String? {
        try? String(contentsOf: layout.url(path), encoding: .utf8)
    }

    private func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: layout.url(path).path)
    }

    /// The names in a folder, sorted; none when it does not exist.
    private func names(in folder: String, suffix: String = ".swift") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: layout.url(folder).path)) ?? [])
            .filter { $0.hasSuffix(suffix) }.sorted()
    }

    /// The line and column of the first line from `line` on that contains `needle` (a regular
    /// expression with `pattern`).
    static func place(of needle: String, pattern: Bool = false, in text: String?, from line: Int = 1) -> (line: Int, column: Int)? {
        guard let text else { return nil }
        for (index, content) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().dropFirst(line - 1) {
            if let range = content.range(of: needle, options: pattern ? .regularExpression : []) {
                return (index + 1, content.distance(from: content.startIndex, to: range.lowerBound) + 1)
            }
        }
        return nil
    }

    /// A finding at the exercise's entry in its chapter's manifest.
    private func atEntry(_ chapter: Chapter, _ exercise: Exercise, as kind: StaticFinding.Kind = .problem, key: String? = nil,
                         _ sentence: String) -> StaticFinding {
        let path = Layout.manifest(of: chapter.name)
        let manifest = text(path)
        // However the JSON is spaced: `"id": "5.4"`, `"id" : "5.4"`.
        let entry = Self.place(of: #""id"\s*:\s*"\#(NSRegularExpression.escapedPattern(for: exercise.id))""#, pattern: true, in: manifest)
        let keyed = key.flatMap { key in Self.place(of: #""\#(key)"\s*:"#, pattern: true, in: manifest, from: entry?.line ?? 1) }
        let place = keyed ?? entry
        return StaticFinding(kind, path, line: place?.line, column: place?.column, sentence)
    }

    // MARK: The manifest

    /// The suite type an exercise's tests are: `Exercise5_4Tests` for 5.4.
    package static func suiteName(of id: String) -> String {
        "Exercise\(id.replacingOccurrences(of: ".", with: "_"))Tests"
    }

    func manifest(_ chapter: Chapter) -> [StaticFinding] {
        var findings: [StaticFinding] = []
        let others = workbook.chapters.filter { $0.name != chapter.name }.flatMap(\.exercises)
        for (index, exercise) in chapter.exercises.enumerated() {
            let before = chapter.exercises[..<index]
            if exercise.id.wholeMatch(of: /\d+\.\d+/) == nil || !exercise.id.hasPrefix("\(chapter.number).") {
                findings.append(atEntry(chapter, exercise, Says.badExerciseID(exercise.id, chapter: chapter.number)))
            }
            if before.contains(where: { $0.id == exercise.id }) || others.contains(where: { $0.id == exercise.id }) {
                findings.append(atEntry(chapter, exercise, Says.duplicateID(exercise.id)))
            }
            if let other = before.first(where: { $0.file == exercise.file }) {
                findings.append(atEntry(chapter, exercise, key: "file", Says.duplicateFile(exercise.id, file: exercise.file, other: other.id)))
            }
            if !exercise.file.hasSuffix(".swift") || exercise.file.contains("/") {
                findings.append(atEntry(chapter, exercise, key: "file", Says.badFileName(exercise.id, file: exercise.file)))
            }
            if exercise.suite != Self.suiteName(of: exercise.id) {
                findings.append(atEntry(chapter, exercise, key: "suite",
                                        Says.badSuiteName(exercise.id, suite: exercise.suite, expected: Self.suiteName(of: exercise.id))))
            }
            // A starter that must not compile is left out of its chapter's build alone; some other
            // exercise of the chapter must stay to be built (see Builder.decide).
            if exercise.expectedFailure == .compile, !chapter.exercises.contains(where: { $0.expectedFailure != .compile }) {
                findings.append(atEntry(chapter, exercise, key: "expectedFailure", Says.wholeChapterDoesNotCompile(exercise.id)))
            }
        }
        return findings
    }

    // MARK: Starters and solutions

    func files(_ chapter: Chapter) -> [StaticFinding] {
        var findings: [StaticFinding] = []
        for exercise in chapter.exercises {
            let starter = Layout.exerciseFile(chapter, exercise)
            if !exists(starter) {
                findings.append(atEntry(chapter, exercise, key: "file", Says.missing("starter", of: exercise.id, at: starter,
                    fix: "restore it (`workbook reset \(exercise.id)` copies the kept one back), or remove the exercise from chapter.json.")))
            }
            let solution = Layout.exerciseFile(chapter, exercise, in: .solutions)
            if !exists(solution) {
                findings.append(atEntry(chapter, exercise, key: "file", Says.missing("solution", of: exercise.id, at: solution,
                    fix: "write the reference solution there, in the same module as the starter.")))
            }
        }
        let named = Set(chapter.exercises.map(\.file))
        for sources in [SourceSet.exercises, .solutions] {
            let folder = Layout.chapterFolder(chapter, in: sources)
            for file in names(in: folder) where !named.contains(file) {
                findings.append(StaticFinding(.problem, "\(folder)/\(file)", Says.unnamedFile("\(folder)/\(file)", chapter: chapter.name)))
            }
        }
        return findings
    }

    /// The kept copy of every starter (which `reset` restores from) is there and equal to the
    /// starter, on a checkout where the starters are untouched.
    func starterCopies(_ chapter: Chapter) -> [StaticFinding] {
        var findings: [StaticFinding] = []
        for exercise in chapter.exercises {
            let copy = Layout.starterCopy(chapter, exercise), file = Layout.exerciseFile(chapter, exercise)
            let kept = FileManager.default.contents(atPath: layout.url(copy).path)
            let starter = FileManager.default.contents(atPath: layout.url(file).path)
            guard kept != starter, starter != nil else { continue }
            findings.append(kept == nil ? StaticFinding(.problem, copy, Says.copyMissing(copy, of: file))
                                        : StaticFinding(.problem, copy, line: 1, Says.copyDiffers(copy, from: file)))
        }
        let folder = Layout.startersFolder(chapter)
        let named = Set(chapter.exercises.map(\.file))
        for file in names(in: folder) where !named.contains(file) {
            findings.append(StaticFinding(.problem, "\(folder)/\(file)", Says.unusedCopy("\(folder)/\(file)")))
        }
        return findings
    }

    // MARK: Suites

    /// Every suite has its file (the builder finds an exercise's tests by its suite's name, to leave
    /// them out with an exercise that does not compile) declaring the suite; every suite file is an
    /// exercise's; a starter that must not compile has its stand-in.
    func suites(_ chapter: Chapter) -> [StaticFinding] {
        var findings: [StaticFinding] = []
        let folder = Layout.testFolder(chapter)
        let files = names(in: folder)
        // A suite misnamed in the manifest is said there (``manifest(_:)``), once.
        for exercise in chapter.exercises where exercise.suite == Self.suiteName(of: exercise.id) {
            let path = Layout.suiteFile(chapter, exercise)
            let own = Builder.testFiles(ofSuite: exercise.suite, in: files)
            guard !own.isEmpty else {
                findings.append(StaticFinding(.problem, path, Says.suiteMissing(exercise.id, suite: exercise.suite, at: path)))
                continue
            }
            let declared = own.contains { file in
                guard let source = text("\(folder)/\(file)") else { return false }
                return source.contains("struct \(exercise.suite)") && source.contains("@Suite(\"\(exercise.id) ")
            }
            if !declared {
                findings.append(StaticFinding(.problem, "\(folder)/\(own[0])", line: 1, Says.suiteNotDeclared(exercise.id, suite: exercise.suite, at: "\(folder)/\(own[0])")))
            }
            if exercise.expectedFailure == .compile, !exists(Layout.standIn(chapter, exercise)) {
                findings.append(StaticFinding(.problem, Layout.standIn(chapter, exercise), Says.standInMissing(exercise.id, at: Layout.standIn(chapter, exercise))))
            }
        }
        for file in files {
            guard let match = file.wholeMatch(of: /Exercise(\d+)_(\d+)Tests(\+.*)?\.swift/),
                  !chapter.exercises.contains(where: { $0.id == "\(match.1).\(match.2)" }) else { continue }
            findings.append(StaticFinding(.problem, "\(folder)/\(file)", Says.orphanSuite("\(folder)/\(file)")))
        }
        return findings
    }

    // MARK: Hints

    /// Every exercise has its ladder — a question, a direction, the shape — with code only in the
    /// last step; no ladder is of an exercise the chapter does not have.
    func hints(_ chapter: Chapter) -> [StaticFinding] {
        let path = Layout.hints(chapter)
        guard let text = text(path) else {
            return chapter.exercises.isEmpty ? [] : [StaticFinding(.problem, path, Says.hintsMissing(path))]
        }
        let ladders = HintFile.parse(text)
        var findings: [StaticFinding] = []
        for exercise in chapter.exercises {
            let at = Self.place(of: "## \(exercise.id) ", in: text)
            guard let steps = ladders[exercise.id] else {
                findings.append(StaticFinding(.problem, path, Says.hintLadderMissing(exercise.id, in: path)))
                continue
            }
            func finding(_ sentence: String) -> StaticFinding { StaticFinding(.problem, path, line: at?.line, sentence) }
            if steps.map(\.name) != Self.hintSteps {
                findings.append(finding(Says.hintSteps(exercise.id, are: steps.map(\.name), expected: Self.hintSteps)))
            }
            for step in steps where step.text.isEmpty {
                findings.append(finding(Says.emptyHintStep(exercise.id, step: step.name)))
            }
            for step in steps.dropLast() where step.showsCode {
                findings.append(finding(Says.codeBeforeShape(exercise.id, step: step.name)))
            }
        }
        for id in ladders.keys.sorted() where !chapter.exercises.contains(where: { $0.id == id }) {
            findings.append(StaticFinding(.problem, path, line: Self.place(of: "## \(id)", in: text)?.line, Says.orphanHints(id)))
        }
        return findings
    }

    // MARK: Dimensions

    /// The declarations' problems (``Workbook/dimensionProblems(_:)``, which the `dimensions`
    /// command and its unit test use too), at each exercise's entry; a cell still to do is a to-do.
    func dimensions(_ chapter: Chapter) -> [StaticFinding] {
        workbook.dimensions(of: [chapter]).flatMap { item -> [StaticFinding] in
            var settled = item
            var toDo: [StaticFinding] = []
            for (dimension, cell) in item.cells.sorted(by: { $0.key.number < $1.key.number }) {
                guard case let .toDo(what) = cell else { continue }
                toDo.append(atEntry(chapter, item.exercise, as: .toDo, key: dimension.rawValue,
                                    Says.dimensionToDo(item.exercise.id, dimension.rawValue, what)))
                // Listed as a to-do above; the other cells are checked as they are.
                settled.cells[dimension] = .notApplicable(because: what)
            }
            return workbook.dimensionProblems([settled]).map { atEntry(chapter, item.exercise, key: "dimensions", $0 + ".") } + toDo
        }
    }

    // MARK: Lessons

    /// The lesson names every exercise in a heading, and each sample report it shows matches the
    /// recording its fence names.
    func lesson(_ chapter: Chapter) -> [StaticFinding] {
        let path = Layout.lesson(chapter)
        guard let text = text(path) else { return [StaticFinding(.problem, path, Says.lessonMissing(path))] }
        var findings: [StaticFinding] = []
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("#") }
        for exercise in chapter.exercises where !headings.contains(where: { Self.heading($0, names: exercise.id) }) {
            findings.append(StaticFinding(.problem, path, Says.lessonSectionMissing(exercise.id, title: exercise.title, in: path)))
        }
        let folder = Layout.raceRecordings
        for sample in LessonSamples.samples(in: text) {
            func finding(_ sentence: String) -> StaticFinding { StaticFinding(.problem, path, line: sample.line, sentence) }
            guard let name = sample.recording else {
                findings.append(finding(Says.unnamedSample(in: path)))
                continue
            }
            guard let recorded = self.text("\(folder)/\(name).log") else {
                findings.append(finding(Says.sampleWithoutRecording(name, folder: folder)))
                continue
            }
            guard let shown = LessonSamples.shape(of: sample.text) else {
                findings.append(finding(Says.sampleWithoutReport(name)))
                continue
            }
            if let kept = LessonSamples.shape(of: recorded), kept != shown {
                findings.append(finding(Says.sampleDrifted(name, lesson: shown.description, recorded: kept.description)))
            }
        }
        return findings
    }

    /// Whether a heading names the exercise: "Exercise 2.1", not "Exercise 2.10".
    static func heading(_ heading: Substring, names id: String) -> Bool {
        guard let range = heading.range(of: "Exercise \(id)") else { return false }
        return heading[range.upperBound...].first.map { !$0.isNumber } ?? true
    }

    // MARK: Recordings and near misses

    /// Every race-kind starter and near miss has its recorded report, of its file as it is now, and
    /// every recording is of one.
    func recordings() -> [StaticFinding] {
        let folder = Layout.raceRecordings
        let expected = workbook.raceRecordings(of: chapters)
        var findings: [StaticFinding] = []
        for recording in expected {
            let log = "\(folder)/\(recording.name).log"
            guard exists(log) else {
                findings.append(StaticFinding(.problem, recording.source, Says.recordingMissing(recording.name, id: recording.exerciseID, folder: folder)))
                continue
            }
            guard let digest = text("\(folder)/\(recording.name).\(Selftest.recordingDigestExtension)") else {
                findings.append(StaticFinding(.problem, log, Says.recordingDigestMissing(recording.name, folder: folder)))
                continue
            }
            if let source = text(recording.source), digest.trimmingCharacters(in: .whitespacesAndNewlines) != Selftest.recordingDigest(of: source) {
                findings.append(StaticFinding(.problem, recording.source, Says.recordingStale(recording.name, source: recording.source, folder: folder)))
            }
        }
        // Only when every chapter is checked can a recording be known to be of none.
        guard chapters.count == workbook.chapters.count else { return findings }
        let expectedNames = Set(expected.map(\.name))
        for log in names(in: folder, suffix: ".log") where !expectedNames.contains(String(log.dropLast(4))) {
            findings.append(StaticFinding(.problem, "\(folder)/\(log)", Says.recordingUnused("\(folder)/\(log)")))
        }
        return findings
    }

    /// Near misses and alternatives that do not follow the format.
    func corpus() -> [StaticFinding] {
        workbook.corpus(of: chapters).problems.map { problem in
            let path = problem.prefix { $0 != ":" }
            return StaticFinding(.problem, String(path), line: 1, String(problem.dropFirst(path.count + 2)))
        }
    }

    // MARK: To-dos

    /// Every `TODO` line left in an exercise's starter, solution, suite, hints or lesson.
    func toDos(_ chapter: Chapter) -> [StaticFinding] {
        var findings: [StaticFinding] = []
        func scan(_ path: String, _ piece: (_ line: Int) -> String) {
            guard let text = text(path) else { return }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let range = line.range(of: Self.toDoMarker) else { continue }
                let rest = line[range.upperBound...].drop { ":) ".contains($0) }
                let said = rest.isEmpty ? String(line.trimmingCharacters(in: .whitespaces)) : String(rest)
                findings.append(StaticFinding(.toDo, path, line: index + 1, column: line.distance(from: line.startIndex, to: range.lowerBound) + 1,
                                              Says.toDo(piece(index + 1), said)))
            }
        }
        for exercise in chapter.exercises {
            scan(Layout.exerciseFile(chapter, exercise)) { _ in "\(exercise.id)'s starter" }
            scan(Layout.exerciseFile(chapter, exercise, in: .solutions)) { _ in "\(exercise.id)'s solution" }
            for file in Builder.testFiles(ofSuite: exercise.suite, in: names(in: Layout.testFolder(chapter))) {
                scan("\(Layout.testFolder(chapter))/\(file)") { _ in "\(exercise.id)'s suite" }
            }
        }
        let hints = text(Layout.hints(chapter)).map { $0.split(separator: "\n", omittingEmptySubsequences: false) } ?? []
        scan(Layout.hints(chapter)) { line in
            let above = hints.prefix(line)
            let exercise = above.last { $0.hasPrefix("## ") }.map { $0.dropFirst(3).prefix { $0 != " " } } ?? "?"
            let step = above.last { $0.hasPrefix("### ") }.map { $0.dropFirst(4) } ?? ""
            return "\(exercise)'s hint \(step)"
        }
        scan(Layout.lesson(chapter)) { _ in "the lesson" }
        return findings
    }
}

extension StaticCheck {
    /// What `selftest --static` prints: every finding as `path:line:col: error|warning: …`, problems
    /// first, then a last line that counts them.
    package func rendered(_ findings: [StaticFinding], seconds: Double) -> String {
        let problems = findings.filter { $0.kind == .problem }, toDos = findings.filter { $0.kind == .toDo }
        let exercises = chapters.reduce(0) { $0 + $1.exercises.count }
        let scope = "\(exercises) exercise\(exercises == 1 ? "" : "s") in \(chapters.count) chapter\(chapters.count == 1 ? "" : "s")"
        let time = String(format: "%.1f s", seconds)
        var last = problems.isEmpty
            ? "selftest --static: every piece of \(scope) corresponds (\(time))."
            : "selftest --static: \(problems.count) problem\(problems.count == 1 ? "" : "s") in \(scope) (the errors above; \(time))."
        if !toDos.isEmpty {
            last += " \(toDos.count) piece\(toDos.count == 1 ? " is" : "s are") still to write (the warnings above): the full selftest fails until \(toDos.count == 1 ? "it is" : "they are")."
        }
        return (problems + toDos).map(\.description).joined(separator: "\n") + (findings.isEmpty ? "" : "\n") + last
    }
}

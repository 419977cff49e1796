import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
@testable import WorkbookMaintainer
import WorkbookEngineTestSupport

/// `workbook explain` and `check --explain`: a race drawn as two threads side by side, from recorded
/// TSan reports — every race-kind starter's and near miss's (Tests/Fixtures/races, recorded with
/// `workbook selftest --record-races`), and the Darwin dialects.
@Suite("explain: a race drawn as a timeline")
struct ExplainTests {
    static let races = Fixture.folder.appendingPathComponent("races")

    /// 1.1's starter, as recorded on Linux (Tests/Fixtures/race-1.1).
    func starter11(_ log: String = "race-1.1/tsan.log") throws -> RaceTimeline {
        let report = try #require(TSanReport.parse(Fixture.text(log)).first)
        let exercise = Fixture.items("1.1")[0].exercise
        return RaceTimeline(exercise: exercise, report: report, file: "Exercises/Chapter1Latch/CountdownBlock.swift",
                            source: Fixture.text("race-1.1/CountdownBlock.swift.txt"))
    }

    @Test("1.1's starter: both threads, the learner's line under each, in TSan's order, then the question")
    func starter() throws {
        let lines = try starter11().lines()
        let text = lines.joined(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 }, "wider than 80 columns:\n\(text)")
        // The remembered access (T5's write) comes first, on the left; the modifying access (T7) below, on the right.
        let first = try #require(lines.firstIndex { $0.hasPrefix("first: thread T5 (a test thread)") })
        let then = try #require(lines.firstIndex { $0.contains("│ then: thread T7 (a test thread)") })
        let edge = try #require(lines.firstIndex { $0.contains(Says.explainSeparator) })
        #expect(first < edge && edge < then)
        #expect(lines[first..<edge].contains { $0.hasPrefix("  18│ toComplete -= 1") })
        #expect(lines[edge...].contains { $0.hasSuffix("│   18│ toComplete -= 1") })
        #expect(lines[first..<edge].contains { $0.hasPrefix("  in makeLatch(…)") })
        #expect(text.contains("▲ writes `toComplete`") && text.contains("▲ writes `toComplete` too"))
        let said = lines.joined(separator: " ")
        #expect(said.contains("First thread T5 (a test thread) wrote `toComplete` at line 18; then thread T7 (a test thread) wrote `toComplete` at line 18."))
        // Only what TSan's report supports: the edge TSan did not see, the order that only timing set.
        #expect(said.contains("TSan saw no happens-before edge") && said.contains("nothing but timing"))
        #expect(!said.contains("Nothing — no queue") && !said.contains("in either order"))
        #expect(lines.contains(Says.explainQuestion))
    }

    @Test("access lines: the kind before \" at \", the thread without the mutexes it held")
    func accessHeaders() {
        let held = TSanReport.accessHeader("Previous read of size 8 at 0x7b0c0001a3f0 by thread T7 (mutexes: write M0):")
        #expect(held?.thread == "T7" && held?.isWrite == false && held?.isPrevious == true)
        let main = TSanReport.accessHeader("Write of size 1 at 0x7b0c0001a3f0 by main thread:")
        #expect(main?.thread == "main thread" && main?.isWrite == true)
        let modifying = TSanReport.accessHeader("Modifying access of Swift variable at 0x720800002990 by thread T7:")
        #expect(modifying?.thread == "T7" && modifying?.isWrite == true)
    }

    @Test("a frame that kept no line: its function, found from the mangled or the demangled name")
    func functionOnly() {
        let source = """
            final class CountDownLatch {
                public func countDown() {
                    queue.sync { remaining -= 1 }
                }
                var value: Int {
                    queue.sync { remaining }
                }
            }
            """
        // `countDown` is mangled with a word substitution (`05countD0`): read through the runtime's demangler.
        #expect(RaceSides.function(named: "$s13Chapter1Latch09CountDownB0C05countD0yyFSay8Dispatch0F5QueueC5queue_yyc5blocktGyXEfU_", in: source)?.name == "countDown(…)")
        #expect(RaceSides.function(named: "closure #1 in CountDownLatch.countDown()", in: source)?.line == 2)
        #expect(RaceSides.function(named: "CountDownLatch.value.getter", in: source)?.line == 5)
        #expect(RaceSides.function(named: "swift_retain", in: source) == nil)
    }

    @Test("narrower terminals: every line fits", arguments: [60, 72, 100])
    func widths(width: Int) throws {
        let lines = try starter11().lines(width: width)
        #expect(lines.allSatisfy { $0.count <= width }, "\(lines.joined(separator: "\n"))")
    }

    @Test("Darwin's dialects draw the same lines", arguments: ["darwin/race-1.1-atos.log", "darwin/race-1.1-llvm-symbolizer.log"])
    func darwin(log: String) throws {
        let linux = try starter11().lines().filter { $0.contains("│ ") || $0.hasPrefix("  18│") }
        let darwin = try starter11(log).lines().filter { $0.contains("│ ") || $0.hasPrefix("  18│") }
        #expect(darwin.contains { $0.hasPrefix("  18│ toComplete -= 1") })
        #expect(darwin.filter { $0.contains("18│") } == linux.filter { $0.contains("18│") })
    }

    @Test("a report that names no file: no drawing, a sentence that says why and where to look")
    func unsymbolized() throws {
        let timeline = try starter11("darwin/race-1.1-unsymbolized.log")
        let text = timeline.lines().joined(separator: "\n")
        #expect(text.contains("names no line of CountdownBlock.swift"))
        #expect(!text.contains(Says.explainSeparator))
        #expect(timeline.problem() != nil, "selftest must not count it drawn")
    }

    /// Every race-kind starter and near miss, with the file its report was recorded from.
    static var expectedRecordings: [(name: String, source: URL)] {
        Fixture.workbook.raceRecordings().map { (name: $0.name, source: Fixture.workbook.layout.url($0.source)) }
    }

    @Test("every race-kind starter and near miss has a recorded report (selftest --record-races)")
    func everyRaceRecorded() throws {
        let recorded = Set(((try? FileManager.default.contentsOfDirectory(atPath: Self.races.path)) ?? [])
            .filter { $0.hasSuffix(".log") }.map { String($0.dropLast(4)) })
        let expected = Self.expectedRecordings.map(\.name)
        #expect(expected.count >= 40)
        #expect(Set(expected).subtracting(recorded).sorted() == [], "record them: workbook selftest --record-races \(Layout.raceRecordings)")
        #expect(recorded.subtracting(expected).sorted() == [], "recordings of entries that are no longer race-kind")
    }

    /// A recorded race by its name: its report, its exercise, the learner's file (from the package
    /// root) and the text it was recorded from.
    static func recording(_ name: String) throws -> (report: TSanReport, exercise: Exercise, file: String, text: String) {
        let source = try #require(expectedRecordings.first { $0.name == name }?.source)
        let log = try String(contentsOf: races.appendingPathComponent(name + ".log"), encoding: .utf8)
        let report = try #require(TSanReport.parse(log).first)
        let id = String(name.hasPrefix("starter-") ? name.dropFirst("starter-".count) : name.prefix { $0 != "-" })
        let named = Fixture.items(id)[0]
        let (chapter, exercise) = (named.chapter, named.exercise)
        return (report, exercise, Layout.exerciseFile(chapter, exercise), try String(contentsOf: source, encoding: .utf8))
    }

    /// One thread's column of a drawing: its rows, left (the first access) or right (the second).
    static func column(_ lines: [String], right: Bool, width: Int = 80) -> [String] {
        let middle = (width - 3) / 2
        return lines.compactMap { line in
            let characters = Array(line)
            guard characters.count > middle, characters[middle] == "│" else { return nil }
            let left = String(characters[..<middle])
            let isRight = left.allSatisfy(\.isWhitespace)
            guard isRight == right else { return nil }
            return isRight ? String(characters[(middle + 1)...].dropFirst()) : left
        }
    }

    /// Whether a line of Swift (its `//` comment left out) writes `variable`: assigns it (through
    /// `[…]`, `.member` or `!` too), changes it by a mutating call, or passes it `&inout` — and does
    /// not declare it.
    static func writes(_ variable: String, in code: String) -> Bool {
        let name = NSRegularExpression.escapedPattern(for: variable)
        let code = code.components(separatedBy: "//")[0]
        if code.range(of: #"\b(let|var)\s+"# + name + #"\b"#, options: .regularExpression) != nil { return false }
        let chain = #"(\s*\[[^\]]*\]|\s*\.\s*[A-Za-z_]\w*|[!?])*"#
        let assigned = #"\b"# + name + #"\b"# + chain + #"\s*(=(?!=)|[-+*/%&|^]=|<<=|>>=)"#
        let mutated = #"\b"# + name + #"\b"# + chain + #"\.(append|insert|remove\w*|updateValue|toggle|popLast|sort|merge|subtract|formUnion)\("#
        return [assigned, mutated, "&" + name + #"\b"#].contains { code.range(of: $0, options: .regularExpression) != nil }
    }

    @Test("every drawn access sits under a line that makes it: a write under a line that writes the variable it names, a read under one that names it",
          arguments: expectedRecordings.map(\.name))
    func drawnLinesHoldTheirAccess(name: String) throws {
        let (report, exercise, file, text) = try Self.recording(name)
        let sourceLines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let lines = RaceTimeline(exercise: exercise, report: report, file: file, source: text).lines()
        // The accesses as drawn: the remembered one on the left. One made by code the learner's
        // line called (a test's completion) is drawn under that call, which is not held here.
        let accesses = report.accesses.filter(\.isPrevious) + report.accesses.filter { !$0.isPrevious }
        for (access, right) in zip(accesses, [false, true]) {
            let before = access.frames.prefix { !$0.isIn("/" + file) }
            guard before.count < access.frames.count, !before.contains(where: { $0.file?.hasSuffix(".swift") ?? false }) else { continue }
            let rows = Self.column(lines, right: right)
            // A claim and the row it wraps onto, if any.
            let saying: (Int) -> String = { claim in
                rows[claim] + (claim + 1 < rows.count && !rows[claim + 1].contains("│") ? " " + rows[claim + 1] : "")
            }
            let claims = rows.indices.filter { rows[$0].contains("▲ ") && !saying($0).contains("TSan kept no line") }
            for claim in claims {
                let said = saying(claim)
                let quoted = try #require(rows[claim - 1].wholeMatch(of: /\s*(\d+)│ .*/), "\(name): \(said) is under no line:\n\(lines.joined(separator: "\n"))")
                let number = try #require(Int(quoted.1))
                let code = sourceLines[number - 1]
                let variable = try #require(said.firstMatch(of: /`([^`]+)`/).map { String($0.1) },
                                            "\(name): the access at line \(number) names no variable: \(said)")
                if access.isWrite {
                    #expect(said.contains("▲ writes"), "\(name): a write drawn as \(said)")
                    #expect(Self.writes(variable, in: code), "\(name): line \(number) does not write `\(variable)`: \(code)")
                } else {
                    #expect(said.contains("▲ reads"), "\(name): a read drawn as \(said)")
                    #expect(code.range(of: "\\b\(variable)\\b", options: .regularExpression) != nil,
                            "\(name): line \(number) does not use `\(variable)`: \(code)")
                }
            }
            #expect(!claims.isEmpty || rows.contains { $0.contains("TSan kept no line") }, "\(name): an access drawn with no claim")
        }
    }

    @Test("a lock around only the decrement: the write is drawn at the decrement, not at the `if` that reads outside the lock")
    func lockAroundDecrementOnly() throws {
        let (report, exercise, file, text) = try Self.recording("1.1-lock-around-decrement-only")
        // TSan kept no line for the write, and the read's line for the same closure.
        #expect(report.accesses.first { $0.isWrite }?.frames.first?.line == nil)
        let lines = RaceTimeline(exercise: exercise, report: report, file: file, source: text).lines()
        let joined = lines.joined(separator: " ")
        #expect(joined.contains("read `toComplete` at line 17") && joined.contains("wrote `toComplete` at line 15"), "\(lines.joined(separator: "\n"))")
        let finding = try #require(Grader(sources: .exercises, readSource: { _ in text }).raceFinding(report, Fixture.items("1.1"))?.1)
        #expect(finding.message.contains("CountdownBlock.swift:17 (read") && finding.message.contains("CountdownBlock.swift:15 (write"), "\(finding.message)")
        #expect(!finding.message.contains(":17 (write"))
    }

    @Test("a frame without a line whose code has no one line for the access: the line is said unknown, in the function it names — never another line")
    func lineUnknown() throws {
        let source = """
            public final class HitCounter {
                private var hits = 0
                private var misses = 0
                public func increment() {
                    queue.sync {
                        hits += 1
                        misses += 1
                    }
                }
                public var value: Int { queue.sync { hits + misses } }
            }
            """
        let log = """
            WARNING: ThreadSanitizer: Swift access race (pid=1)
              Modifying access of Swift variable at 0x7b0400000010 by thread T2:
                #0 closure #1 in HitCounter.increment() HitCounter.swift (Tests:arm64+0x10)
                #1 HitCounter.increment() HitCounter.swift:5 (Tests:arm64+0x20)
              Previous read of size 8 at 0x7b0400000010 by thread T3:
                #0 closure #1 in HitCounter.value.getter HitCounter.swift (Tests:arm64+0x30)
            SUMMARY: ThreadSanitizer: Swift access race
            """
        let report = try #require(TSanReport.parse(log).first)
        let named = Fixture.items("5.1")[0]
        let (chapter, exercise) = (named.chapter, named.exercise)
        let placed = RaceSides(report, in: "/" + Layout.exerciseFile(chapter, exercise), source: source)
        #expect(placed.sides.map(\.line) == [nil, nil], "two writes in the closure, and a read of no known variable: no one line")
        #expect(placed.sides.map { $0.function?.name } == ["increment(…)", "value"])
        let timeline = RaceTimeline(exercise: exercise, report: report, file: Layout.exerciseFile(chapter, exercise), source: source)
        let lines = timeline.lines()
        #expect(timeline.problem() == nil, "\(lines.joined(separator: "\n"))")
        let (first, then) = [false, true].map { right in
            Self.column(lines, right: right).joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }.pair
        #expect(first.contains("in value 10│ public var value: Int") && first.contains("▲ reads something in value; TSan kept no line"), "\(first)")
        #expect(then.hasPrefix("then: thread T2 5│ queue.sync { in increment(…) 4│ public func increment() {"), "the call that led there, as a call: \(then)")
        #expect(then.hasSuffix("▲ changes something in increment(…); TSan kept no line"), "\(then)")
        #expect(!(first + then).contains("▲ writes") && !(first + then).contains("▲ reads `") && !(first + then).contains("▲ reads here"),
                "no access is drawn under a line it was not made at")
    }

    @Test("every recorded race draws: a line of the learner's file, both threads, 80 columns",
          arguments: expectedRecordings.map(\.name))
    func recorded(name: String) throws {
        let (report, exercise, file, text) = try Self.recording(name)
        let timeline = RaceTimeline(exercise: exercise, report: report, file: file, source: text)
        #expect(timeline.problem() == nil)
        let lines = timeline.lines()
        #expect(lines.contains { $0.hasPrefix("first: ") } && lines.contains { $0.contains("│ then: ") })
        // Every line the drawing quotes is that line of the learner's file.
        let sourceLines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let quoted = lines.compactMap { line -> (Int, String)? in
            // "  18│ code   │" on the left, "        │   18│ code" on the right.
            let cells = Array(line.split(separator: "│", omittingEmptySubsequences: false)
                .drop { $0.allSatisfy(\.isWhitespace) })
            guard cells.count >= 2, let number = Int(cells[0].trimmingCharacters(in: .whitespaces)) else { return nil }
            return (number, cells[1].trimmingCharacters(in: .whitespaces))
        }
        #expect(!quoted.isEmpty, "\(lines.joined(separator: "\n"))")
        for (number, code) in quoted {
            let actual = sourceLines[number - 1].trimmingCharacters(in: .whitespaces)
            #expect(actual.hasPrefix(code.hasSuffix("…") ? String(code.dropLast()) : code), "line \(number) quoted as \(code)")
        }
    }
}

private extension Array {
    /// The first two elements.
    var pair: (Element, Element) { (self[0], self[1]) }
}

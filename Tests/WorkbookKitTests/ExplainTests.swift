import Foundation
import Testing
@testable import WorkbookKit

/// `workbook explain` and `check --explain`: a race drawn as two threads side by side, from recorded
/// TSan reports — every race-kind starter's and near miss's (Fixtures/races, recorded with
/// `workbook selftest --record-races`), and the Darwin dialects.
@Suite("explain: a race drawn as a timeline")
struct ExplainTests {
    static let races = Fixture.folder.appendingPathComponent("races")

    /// 1.1's starter, as recorded on Linux (Fixtures/race-1.1).
    func starter11(_ log: String = "race-1.1/tsan.log") throws -> RaceTimeline {
        let report = try #require(TSanReport.parse(Fixture.text(log)).first)
        let (_, exercise) = Fixture.items("1.1")[0]
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
        let workbook = Fixture.workbook
        let starters = workbook.allExercises.filter { $0.exercise.expectedFailure == .race }.map { chapter, exercise in
            (name: "starter-\(exercise.id)",
             source: Fixture.packageRoot.appendingPathComponent("Tests/Starters/\(chapter.name)/\(exercise.file)"))
        }
        let nearMisses = workbook.corpus(of: workbook.chapters).entries.filter { $0.expectation == .fails(.race) }
            .map { (name: $0.name, source: $0.file) }
        return starters + nearMisses
    }

    @Test("every race-kind starter and near miss has a recorded report (selftest --record-races)")
    func everyRaceRecorded() throws {
        let recorded = Set(((try? FileManager.default.contentsOfDirectory(atPath: Self.races.path)) ?? [])
            .filter { $0.hasSuffix(".log") }.map { String($0.dropLast(4)) })
        let expected = Self.expectedRecordings.map(\.name)
        #expect(expected.count >= 40)
        #expect(Set(expected).subtracting(recorded).sorted() == [], "record them: workbook selftest --record-races Tests/WorkbookKitTests/Fixtures/races")
        #expect(recorded.subtracting(expected).sorted() == [], "recordings of entries that are no longer race-kind")
    }

    @Test("every recorded race draws: a line of the learner's file, both threads, 80 columns",
          arguments: expectedRecordings.map(\.name))
    func recorded(name: String) throws {
        let source = try #require(Self.expectedRecordings.first { $0.name == name }?.source)
        let log = try String(contentsOf: Self.races.appendingPathComponent(name + ".log"), encoding: .utf8)
        let report = try #require(TSanReport.parse(log).first)
        let id = String(name.hasPrefix("starter-") ? name.dropFirst("starter-".count) : name.prefix { $0 != "-" })
        let (chapter, exercise) = Fixture.items(id)[0]
        let text = try String(contentsOf: source, encoding: .utf8)
        let timeline = RaceTimeline(exercise: exercise, report: report, file: Layout.exerciseFile(chapter, exercise), source: text)
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

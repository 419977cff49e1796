import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
@testable import WorkbookMaintainer

/// The TSan reports the lessons print are what the starters (or the near misses they name) produce
/// now, and each recording in Fixtures/races is still of the file it was recorded from.
///
/// A lesson's sample sits in a fence that names its recording: ```` ```tsan starter-1.1 ````. Its
/// kind, the kind of each access, the file and line of each access's frame `#0`, and the SUMMARY's
/// file and line must be the recording's. The recording, in turn, keeps the SHA-256 of the file it
/// came from (`<name>.sha256`, written by `selftest --record-races`): when the starter or near miss
/// changes, the recording is stale, and so is every lesson sample drawn from it.
@Suite("Lesson samples and recorded reports")
struct LessonSampleTests {
    static let races = Fixture.folder.appendingPathComponent("races")

    /// What a sample and a recording must agree on.
    struct Shape: Equatable, CustomStringConvertible {
        /// "Swift access race", "data race".
        var title: String
        /// Each access's kind ("Read of size 8", "Previous write of size 1") and the place its frame
        /// `#0` names ("TokenStore.swift:29:15", "CountdownBlock.swift" when it kept no line).
        var accesses: [String]
        /// The place the SUMMARY line names.
        var summary: String?

        var description: String {
            "\(title); " + accesses.joined(separator: "; ") + "; SUMMARY \(summary ?? "—")"
        }
    }

    /// `File.swift`, `File.swift:26`, `File.swift:26:24`: the first Swift file a line names.
    static func place(in line: Substring) -> String? {
        line.firstMatch(of: /([A-Za-z0-9_+\-]+\.swift)(:\d+)?(:\d+)?/).map { String($0.output.0) }
    }

    /// The shape of a report's text: a lesson's sample or a recorded log.
    static func shape(of text: String) -> Shape? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.first(where: { $0.contains("WARNING: ThreadSanitizer:") }) else { return nil }
        var title = String(header[header.range(of: "WARNING: ThreadSanitizer:")!.upperBound...])
        if let pid = title.range(of: " (pid=") { title = String(title[..<pid.lowerBound]) }
        var accesses: [String] = []
        var summary: String?
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if TSanReport.accessHeader(trimmed) != nil, let at = trimmed.range(of: " at ") {
                let kind = String(trimmed[..<at.lowerBound])
                let frame = lines[(index + 1)...].first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#0 ") }
                accesses.append(kind + " " + (frame.flatMap { place(in: $0) } ?? "(no Swift file)"))
            } else if trimmed.hasPrefix("SUMMARY:") {
                summary = place(in: line)
            }
        }
        return Shape(title: title.trimmingCharacters(in: .whitespaces), accesses: accesses, summary: summary)
    }

    /// Every fenced sample of a lesson: the recording its fence names, and the sample's text.
    static func samples(in lesson: String) -> (named: [(recording: String, text: String)], unnamed: Int) {
        var named: [(String, String)] = []
        var unnamed = 0
        var open: (info: String, lines: [String])?
        for line in lesson.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if let block = open {
                    let text = block.lines.joined(separator: "\n")
                    let words = block.info.split(separator: " ")
                    if words.first == "tsan", words.count == 2 {
                        named.append((String(words[1]), text))
                    } else if text.contains("WARNING: ThreadSanitizer") {
                        unnamed += 1
                    }
                    open = nil
                } else {
                    open = (String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), [])
                }
            } else {
                open?.lines.append(line)
            }
        }
        return (named, unnamed)
    }

    static func lessons() throws -> [(chapter: String, text: String)] {
        try Fixture.workbook.chapters.map { chapter in
            (chapter.name, try String(contentsOf: Fixture.workbook.lessonFile(chapter), encoding: .utf8))
        }
    }

    @Test("the shape of a report: its kind, each access's kind and place, the SUMMARY's place")
    func shapeOfAReport() throws {
        let sample = """
            WARNING: ThreadSanitizer: data race (pid=…)
              Read of size 8 at 0x720c000… by thread T9:
                #0 $s20Chapter4SerialQueues10TokenStoreC5tokenSSSgvg …/TokenStore.swift:29:15
                #1 …
              Previous write of size 8 at 0x720c000… by thread T6:
                #0 $s20Chapter4SerialQueues10TokenStoreC5tokenSSSgvs …/TokenStore.swift:30:27
            SUMMARY: ThreadSanitizer: data race …/TokenStore.swift:29:15 in $s20Chapter4SerialQueues10TokenStoreC5tokenSSSgvg
            """
        let shape = try #require(Self.shape(of: sample))
        #expect(shape == Shape(title: "data race",
                               accesses: ["Read of size 8 TokenStore.swift:29:15", "Previous write of size 8 TokenStore.swift:30:27"],
                               summary: "TokenStore.swift:29:15"))
        let recorded = try #require(Self.shape(of: Fixture.text("races/starter-4.1.log")))
        #expect(recorded == shape, "the recording of 4.1's starter: \(recorded)")
    }

    @Test("every recorded report is of the file as it is now (re-record when a starter or near miss changes)")
    func recordingsAreOfTheirFiles() throws {
        for (name, source) in ExplainTests.expectedRecordings {
            let digestFile = Self.races.appendingPathComponent("\(name).\(Selftest.recordingDigestExtension)")
            guard let recorded = try? String(contentsOf: digestFile, encoding: .utf8) else {
                Issue.record("\(name): no \(digestFile.lastPathComponent) beside its recording; record it with `workbook selftest --record-races Tests/WorkbookKitTests/Fixtures/races`")
                continue
            }
            let text = try String(contentsOf: source, encoding: .utf8)
            #expect(recorded.trimmingCharacters(in: .whitespacesAndNewlines) == Selftest.recordingDigest(of: text),
                    "\(name): \(source.lastPathComponent) has changed since its report was recorded; re-record it (`workbook selftest <chapter> --record-races DIR`, then copy \(name).log and \(name).sha256 into Fixtures/races) and check the lesson samples drawn from it")
        }
    }

    @Test("every lesson's sample report matches the recording its fence names")
    func samplesMatchTheirRecordings() throws {
        var checked = 0
        for lesson in try Self.lessons() {
            let found = Self.samples(in: lesson.text)
            #expect(found.unnamed == 0, "\(lesson.chapter): a sample TSan report in a fence that names no recording; open it with ```tsan <recording>, e.g. ```tsan starter-1.1")
            for sample in found.named {
                let log = Self.races.appendingPathComponent(sample.recording + ".log")
                guard let recordedText = try? String(contentsOf: log, encoding: .utf8) else {
                    Issue.record("\(lesson.chapter): the sample names \(sample.recording), which Fixtures/races does not have")
                    continue
                }
                let lessonShape = try #require(Self.shape(of: sample.text), "\(lesson.chapter): a sample with no WARNING line")
                let recordedShape = try #require(Self.shape(of: recordedText))
                #expect(lessonShape == recordedShape,
                        "\(lesson.chapter)'s sample of \(sample.recording) has drifted.\n  lesson:   \(lessonShape)\n  recorded: \(recordedShape)")
                checked += 1
            }
        }
        #expect(checked >= 5, "the lessons of chapters 1, 2, 3, 4 and 5 each show a sample")
    }

    /// The words of a lesson's main path: everything before its "## Going further".
    static func mainPathWords(_ lesson: String) -> Int {
        let main = lesson.components(separatedBy: "\n## Going further").first ?? lesson
        return main.split(whereSeparator: \.isWhitespace).count
    }

    @Test("every lesson's main path, up to \"Going further\", is at most 1 800 words")
    func mainPathsAreShort() throws {
        for lesson in try Self.lessons() {
            #expect(lesson.text.contains("\n## Going further"), "\(lesson.chapter): no \"## Going further\"")
            let words = Self.mainPathWords(lesson.text)
            #expect(words <= 1_800, "\(lesson.chapter): the main path has \(words) words; move what only some readers need to \"Going further\"")
        }
    }
}

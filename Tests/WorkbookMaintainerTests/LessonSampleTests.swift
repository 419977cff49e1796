import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
@testable import WorkbookMaintainer
import WorkbookEngineTestSupport

/// The TSan reports the lessons print are what the starters (or the near misses they name) produce
/// now, and each recording in Tests/Fixtures/races is still of the file it was recorded from.
///
/// A lesson's sample sits in a fence that names its recording: ```` ```tsan starter-1.1 ````. Its
/// kind, the kind of each access, the file and line of each access's frame `#0`, and the SUMMARY's
/// file and line must be the recording's. The recording, in turn, keeps the SHA-256 of the file it
/// came from (`<name>.sha256`, written by `selftest --record-races`): when the starter or near miss
/// changes, the recording is stale, and so is every lesson sample drawn from it.
@Suite("Lesson samples and recorded reports")
struct LessonSampleTests {
    static let races = Fixture.folder.appendingPathComponent("races")

    // The shape of a report and a lesson's samples are the engine's (``LessonSamples``), which
    // `selftest --static` checks with.
    typealias Shape = LessonSamples.Shape

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
        let shape = try #require(LessonSamples.shape(of: sample))
        #expect(shape == Shape(title: "data race",
                               accesses: ["Read of size 8 TokenStore.swift:29:15", "Previous write of size 8 TokenStore.swift:30:27"],
                               summary: "TokenStore.swift:29:15"))
        let recorded = try #require(LessonSamples.shape(of: Fixture.text("races/starter-4.1.log")))
        #expect(recorded == shape, "the recording of 4.1's starter: \(recorded)")
    }

    @Test("every recorded report is of the file as it is now (re-record when a starter or near miss changes)")
    func recordingsAreOfTheirFiles() throws {
        let findings = StaticCheck(workbook: Fixture.workbook).recordings()
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test("every lesson's sample report matches the recording its fence names")
    func samplesMatchTheirRecordings() throws {
        var checked = 0
        for lesson in try Self.lessons() {
            let found = LessonSamples.samples(in: lesson.text)
            #expect(!found.contains { $0.recording == nil }, "\(lesson.chapter): a sample TSan report in a fence that names no recording; open it with ```tsan <recording>, e.g. ```tsan starter-1.1")
            for sample in found {
                guard let recording = sample.recording else { continue }
                let log = Self.races.appendingPathComponent(recording + ".log")
                guard let recordedText = try? String(contentsOf: log, encoding: .utf8) else {
                    Issue.record("\(lesson.chapter): the sample names \(recording), which Fixtures/races does not have")
                    continue
                }
                let lessonShape = try #require(LessonSamples.shape(of: sample.text), "\(lesson.chapter): a sample with no WARNING line")
                let recordedShape = try #require(LessonSamples.shape(of: recordedText))
                #expect(lessonShape == recordedShape,
                        "\(lesson.chapter)'s sample of \(recording) has drifted.\n  lesson:   \(lessonShape)\n  recorded: \(recordedShape)")
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

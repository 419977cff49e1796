import Foundation
import Testing
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookWire
import WorkbookEngineTestSupport

@Suite("Parsing recorded outputs")
struct ParserTests {
    @Test("a clean run's event stream: every test ended and passed, no issues")
    func cleanEventStream() {
        let stream = EventStream(jsonLines: Fixture.text("clean-solutions/events.jsonl"))
        #expect(stream.runEnded)
        #expect(stream.issues.isEmpty)
        #expect(stream.started.count > 6)
        #expect(stream.unfinished.isEmpty)
        #expect(stream.ended.values.allSatisfy { $0 })
        #expect(stream.names.values.contains("whenZero runs exactly once when four threads make all the calls together"))
    }

    @Test("a failed expectation: the test's own comment is the summary, the location is the test's line")
    func failedExpectation() throws {
        let stream = EventStream(jsonLines: Fixture.text("fake-output-1.2/events.jsonl"))
        let issue = try #require(stream.issues.first { $0.summary.contains("calls passed false, true, true") })
        #expect(issue.kind == .wrong)
        #expect(issue.line == 13)
        #expect(issue.file?.hasSuffix("Tests/Chapter1LatchTests/Exercise1_2Tests.swift") == true)
        #expect(stream.ended[issue.testID] == false)
    }

    @Test("a bounded wait that ran out is a hang-kind issue")
    func timedOutIssue() {
        let stream = EventStream(jsonLines: Fixture.text("hang-1.3/events.jsonl"))
        #expect(stream.issues.contains { $0.kind == .hang && $0.summary.contains("timed out") })
    }

    @Test("each marker the test support opens a message with is read back as its kind; known issues and warnings are not failures")
    func markers() {
        func issueRecorded(_ text: String, isKnown: Bool = false, severity: String = "error") -> String {
            #"{"kind":"event","version":0,"payload":{"kind":"issueRecorded","testID":"M.S/t()","messages":[{"symbol":"fail","text":"\#(text)"}],"issue":{"isKnown":\#(isKnown),"severity":"\#(severity)","sourceLocation":{"filePath":"/p/Tests/X.swift","line":3,"column":1}}}}"#
        }
        let lines = [
            issueRecorded("\(FailureMarker.timedOut) the latch never opened"),
            issueRecorded("\(FailureMarker.crashed) the child trapped"),
            issueRecorded("\(FailureMarker.race) two threads"),
            issueRecorded("Expectation failed: 1 == 2"),
            issueRecorded("known", isKnown: true),
            issueRecorded("just a warning", severity: "warning"),
        ]
        let stream = EventStream(jsonLines: lines.joined(separator: "\n"))
        #expect(stream.issues.map(\.kind) == [.hang, .crash, .race, .wrong])
        #expect(stream.issues.first?.file == "/p/Tests/X.swift" && stream.issues.first?.line == 3)
    }

    @Test("every marker is read back as its own kind, and loses its words in the learner's sentence", arguments: FailureMarker.allCases)
    func everyMarker(marker: FailureMarker) {
        let issue = EventStream.Issue(testID: "M.S/t()", messages: ["\(marker) it went wrong"], file: nil, line: nil)
        #expect(issue.kind == marker.kind)
        #expect(issue.kind != .wrong, "a marker stands for a kind other than a wrong result")
        #expect(Grader.strippingMarker(issue.summary) == "it went wrong")
    }

    @Test("a torn last line (a killed writer) is skipped, the rest is read")
    func tornLine() {
        let text = Fixture.text("clean-solutions/events.jsonl")
        let torn = String(text.dropLast(40))
        let stream = EventStream(jsonLines: torn)
        #expect(!stream.started.isEmpty)
        #expect(!stream.runEnded)
    }

    @Test("a hung run never says it ended, and names the test it was in")
    func hungStream() {
        let stream = EventStream(jsonLines: Fixture.text("hang-5.3/events.jsonl"))
        #expect(!stream.runEnded)
        #expect(stream.unfinished.contains { $0.contains("emptyListCompletes") })
    }

    @Test("TSan reports: title, two accesses with their threads, learner frames with lines")
    func tsanRace() throws {
        let reports = TSanReport.parse(Fixture.text("race-1.1/tsan.log"))
        #expect(reports.count == 2)
        let report = try #require(reports.first)
        #expect(["Swift access race", "data race"].contains(report.title))
        #expect(report.accesses.count == 2)
        #expect(report.accesses.allSatisfy { $0.isWrite })
        #expect(report.accesses.last?.isPrevious == true)
        #expect(report.accesses.allSatisfy { $0.thread.hasPrefix("T") })
        let learner = report.allFrames.filter { $0.file?.hasSuffix("Exercises/Chapter1Latch/CountdownBlock.swift") == true }
        #expect(learner.contains { $0.line == 18 })
        #expect(report.summaryLine?.hasPrefix("SUMMARY: ThreadSanitizer") == true)
        for access in report.accesses {
            #expect(report.threadKinds[access.thread] == "a test thread", "\(access.thread) was started by the test's start gate")
        }
    }

    @Test("frame lines in every shape TSan prints")
    func frames() {
        let full = TSanReport.frame("#0 $s4main3fooyyF /a/b/File.swift:18:24 (bin+0x1) (BuildId: 1)")
        #expect(full == TSanReport.Frame(symbol: "$s4main3fooyyF", file: "/a/b/File.swift", line: 18, column: 24))
        let noLine = TSanReport.frame("#0 $s4main3fooyyF /a/b/File.swift (bin+0x1)")
        #expect(noLine?.file == "/a/b/File.swift" && noLine?.line == nil)
        let library = TSanReport.frame("#4 $s8Dispatch0A5QueueC4sync <null> (libswiftDispatch.so+0x21be1)")
        #expect(library?.file == nil)
    }

    @Test("compiler errors from a real failed build, once each, with file and line")
    func compilerErrors() throws {
        let errors = Builder.compilerErrors(in: Fixture.text("compile-error-build-output.txt"))
        #expect(errors.count == 1)
        let error = try #require(errors.first)
        #expect(error.file == "/work/learner/Exercises/Chapter1Latch/CountdownBlock.swift")
        #expect(error.line == 15 && error.column == 19)
        #expect(error.message == "cannot find 'undefinedName' in scope")
    }

    @Test("a toolchain without TSan is said plainly (fault 10)")
    func missingSanitizer() {
        // The form swiftc's driver uses for a sanitizer a platform lacks (not recordable here: this
        // toolchain has TSan).
        let output = "error: unsupported option '-sanitize=thread' for target 'armv7-unknown-linux-gnueabihf'"
        #expect(Builder.lacksSanitizer(output))
        #expect(WorkbookError.noSanitizer.description.contains("no Thread Sanitizer"))
        #expect(!Builder.lacksSanitizer(Fixture.text("compile-error-build-output.txt")))
    }
}

@Suite("The compiler's warnings about the learner's files")
struct CompilerWarningsTests {
    @Test("said when compiled, said again while the file is unchanged, gone once a changed file compiles clean")
    func kept() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wb-warnings-\(UUID().uuidString)")
        let file = "Exercises/Chapter4SerialQueues/AuthToken.swift"
        let warnings = CompilerWarnings(memory: root.appendingPathComponent(".build-check/workbook-warnings.json"))
        let output = "[3/9] Compiling\n\(root.path)/\(file):41:13: warning: setter argument 'newValue' was never used, but the property was accessed\n"
            + "/x/Tests/Chapter4SerialQueuesTests/Exercise4_5Tests.swift:3:1: warning: not the learner's\n"

        let read = LearnerSources(texts: [file: "var token = 1"])
        let first = warnings.update(output: output, files: [file], sources: read)
        #expect(first[file] == [PatternWarning(rule: "compiler", line: 41, message: "setter argument 'newValue' was never used, but the property was accessed")])
        #expect(warnings.update(output: "Build complete!", files: [file], sources: read) == first, "not compiled again: still said")
        #expect(warnings.update(output: "Build complete!", files: [file], sources: LearnerSources(texts: [file: "var token = 2"]))[file] == [],
                "changed and compiled clean")
    }
}

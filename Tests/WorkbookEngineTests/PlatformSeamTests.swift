import Foundation
import Testing
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

@Suite("The platform seam and the toolchain floor")
struct PlatformSeamTests {
    @Test("no platform condition outside the seam but the operating system's own calls")
    func conditionsStayInTheSeam() throws {
        // Where an #if may stand, and why: the host's kind (Platform), the C types of posix_spawn and
        // the C library's module (ChildProcess), the terminal-size ioctl and its module (Terminal).
        let allowed = ["WorkbookEngine/Platform/Platform+Host.swift", "WorkbookEngine/Run/ChildProcess.swift", "workbook/Terminal.swift"]
        let sources = Fixture.packageRoot.appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(atPath: sources.path))
        var checked = 0
        for case let path as String in walker where path.hasSuffix(".swift") {
            checked += 1
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            let conditions = text.split(separator: "\n").filter { line in
                let code = line.trimmingCharacters(in: .whitespaces)
                return (code.hasPrefix("#if") || code.hasPrefix("#elseif"))
                    && (code.contains("os(") || code.contains("canImport(Darwin)") || code.contains("canImport(Glibc)"))
            }
            #expect(conditions.isEmpty || allowed.contains(path), "\(path): \(conditions.joined(separator: " | ")) — put the difference in Platform")
        }
        #expect(checked > 20)
    }

    @Test("the version of swift.org's and Xcode's `swift --version`")
    func versions() throws {
        let linux = try #require(Toolchain(versionOutput: "Swift version 6.3.1 (swift-6.3.1-RELEASE)\nTarget: x86_64-unknown-linux-gnu"))
        #expect(linux.version == Toolchain.Version(6, 3))
        let xcode = try #require(Toolchain(versionOutput: "swift-driver version: 1.127.14.1 Apple Swift version 6.2 (swiftlang-6.2.0.19.9 clang-1700.3.19.1)\nTarget: arm64-apple-macosx26.0"))
        #expect(xcode.version == Toolchain.Version(6, 2))
        #expect(Toolchain(versionOutput: "command not found") == nil)
    }

    @Test("below the floor: one sentence saying what is missing and what to install")
    func belowFloor() throws {
        let old = try #require(Toolchain(versionOutput: "swift-driver version: 1.115 Apple Swift version 6.1.2 (swiftlang-6.1.2.1.2 clang-1700.0.13.5)"))
        let problem = try #require(old.floorProblem)
        #expect(problem.contains("Swift 6.3 or later") && problem.contains("Swift 6.1") && problem.contains("Xcode 26.4"))
        #expect(!problem.dropLast().contains(". ") && !problem.contains("\n") && problem.hasSuffix("."), "one sentence: \(problem)")
        #expect(Toolchain(version: Toolchain.floor).floorProblem == nil)
        #expect(Toolchain(version: .init(7, 0)).floorProblem == nil)
    }

    @Test("the event-stream version follows the toolchain: a number before 6.3, \"6.3\" from then on")
    func eventStreamVersion() {
        #expect(Toolchain(version: .init(6, 2)).eventStreamVersion == "0")
        #expect(Toolchain(version: .init(6, 3)).eventStreamVersion == "6.3")
        #expect(Toolchain(version: .init(6, 4)).eventStreamVersion == "6.3")
        #expect(Toolchain(version: .init(6, 2)).eventStreamArguments(to: "/e.jsonl") == ["--event-stream-output-path", "/e.jsonl", "--event-stream-version", "0"])
    }

    @Test("Swift 6.2's event stream (schema 0: `_severity`, `_filePath`) reads like 6.3's")
    func schemaZero() {
        let lines = """
            {"kind":"event","payload":{"kind":"testStarted","testID":"M.S/t()/F.swift:1:1","instant":{"absolute":1,"since1970":1},"messages":[]},"version":0}
            {"kind":"event","payload":{"kind":"issueRecorded","testID":"M.S/t()/F.swift:1:1","issue":{"_severity":"warning","isKnown":false,"sourceLocation":{"_filePath":"/p/F.swift","line":3,"column":1,"fileID":"M/F.swift"}},"messages":[{"symbol":"warning","text":"a warning"}]},"version":0}
            {"kind":"event","payload":{"kind":"issueRecorded","testID":"M.S/t()/F.swift:1:1","issue":{"_severity":"error","isKnown":false,"sourceLocation":{"_filePath":"/p/F.swift","line":4,"column":1,"fileID":"M/F.swift"}},"messages":[{"symbol":"fail","text":"Timed out: it never returned"}]},"version":0}
            {"kind":"event","payload":{"kind":"testEnded","testID":"M.S/t()/F.swift:1:1","messages":[{"symbol":"fail","text":"failed"}]},"version":0}
            {"kind":"event","payload":{"kind":"runEnded","messages":[]},"version":0}
            """
        let stream = EventStream(jsonLines: lines)
        #expect(stream.issues.count == 1, "a warning is no failure")
        #expect(stream.issues.first?.file == "/p/F.swift" && stream.issues.first?.line == 4)
        #expect(stream.issues.first?.kind == .hang)
        #expect(stream.runEnded && stream.ended["M.S/t()/F.swift:1:1"] == false)
    }
}

@Suite("TSan's settings")
struct SanitizerSettingsTests {
    @Test("plain `swift test` starts with the grader's settings: the test executable's default options and suppressions")
    func sameSettingsBothWays() throws {
        let c = try String(contentsOf: Fixture.packageRoot.appendingPathComponent("Tests/WorkbookSanitizerReports/SanitizerReports.c"),
                           encoding: .utf8)
        #expect(c.contains("return \"\(SanitizerSettings.options)\";"))
        let escaped = SanitizerSettings.suppressions.map { $0 + "\\n" }.joined()
        #expect(c.contains("return \"\(escaped)\";"))
    }

    @Test("the grader's TSAN_OPTIONS carry the options and the run's suppressions file")
    func graderEnvironment() {
        let launch = TestLaunch(platform: Platform(.process), method: .binary, packageRoot: URL(fileURLWithPath: "/p"), scratchPath: URL(fileURLWithPath: "/p/.b"),
                                sources: .exercises, only: nil)
        let folder = URL(fileURLWithPath: "/tmp/run")
        let options = LaunchedTestProcess(launch: launch).sanitizerEnvironment(logFolder: folder)["TSAN_OPTIONS"] ?? ""
        #expect(options.contains(SanitizerSettings.options))
        #expect(options.contains("suppressions=\"/tmp/run/tsan-suppressions.txt\""))
        #expect(SanitizerSettings.suppressionsFile == "race_top:interceptor_free$\nrace_top:wrap_free$\nrace_top:__sanitizer_mz_free$\n")
    }
}

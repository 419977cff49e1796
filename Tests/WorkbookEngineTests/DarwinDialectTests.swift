import Foundation
import Testing
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

/// Darwin's output (reconstructed: see Tests/Fixtures/darwin/README.md) graded through the same code a Mac
/// runs, to the same verdict, kind, file and line as its Linux twin recorded here.
@Suite("Darwin dialects, graded as their Linux twins")
struct DarwinDialectTests {
    let grader = Grader(sources: .exercises, readSource: { path in
        path.hasSuffix("CountdownBlock.swift") ? Fixture.text("race-1.1/CountdownBlock.swift.txt") : nil
    })

    /// 1.1's race from a log, with the Linux recording's event stream.
    func raceFinding(_ log: String) throws -> (ExerciseVerdict, Finding?) {
        var run = Fixture.run("race-1.1", .exited(66))
        run.reports = TSanReport.parse(Fixture.text(log))
        let verdict = try #require(grader.grade(Fixture.items("1.1"), run).verdicts.first)
        return (verdict, verdict.findings.first { $0.kind == .race })
    }

    @Test("a race symbolized by atos (file names alone, demangled names with spaces) and by llvm-symbolizer on a Mac",
          arguments: ["darwin/race-1.1-atos.log", "darwin/race-1.1-llvm-symbolizer.log"])
    func race(log: String) throws {
        let (linux, linuxRace) = try raceFinding("race-1.1/tsan.log")
        let (darwin, darwinRace) = try raceFinding(log)
        #expect(darwin.kind == linux.kind)
        #expect(darwinRace?.file == linuxRace?.file)
        #expect(darwinRace?.line == linuxRace?.line)
        #expect(darwinRace?.line == 18)
        #expect(darwinRace?.message.contains("`toComplete`") == true)
        #expect(darwinRace?.message.contains("a test thread") == true, "Foundation's NSThread is a test thread on Darwin too")
        #expect(darwin.isCaughtAsExpected, "selftest would count it caught")
    }

    @Test("Darwin frames: names with spaces, file names alone, <null>:N (no line), <compiler-generated>")
    func frames() {
        let atos = TSanReport.frame("#7 closure #1 in makeLatch(count:whenZero:) CountdownBlock.swift:16 (DispatchWorkbookPackageTests:arm64+0x1b5f0)")
        #expect(atos == TSanReport.Frame(symbol: "closure #1 in makeLatch(count:whenZero:)", file: "CountdownBlock.swift", line: 16, column: nil))
        let library = TSanReport.frame("#3 __tsan::invoke_and_release_block(void*) <null>:97437424 (libclang_rt.tsan_osx_dynamic.dylib:arm64e+0x7c1d4)")
        #expect(library?.symbol == "__tsan::invoke_and_release_block(void*)" && library?.file == nil && library?.line == nil)
        let generated = TSanReport.frame("#1 partial apply for closure #1 in f() <compiler-generated> (Tests:arm64+0x1)")
        #expect(generated?.file == nil)
        let spaced = TSanReport.frame("#0 f() /Users/Ada Lovelace/GCD Workbook/Exercises/Chapter1Latch/CountdownBlock.swift:18:24 (Tests:arm64+0x1)")
        #expect(spaced?.file == "/Users/Ada Lovelace/GCD Workbook/Exercises/Chapter1Latch/CountdownBlock.swift" && spaced?.line == 18)
        #expect(spaced?.isIn("/Exercises/Chapter1Latch/CountdownBlock.swift") == true)
        #expect(atos?.isIn("/Exercises/Chapter1Latch/CountdownBlock.swift") == true)
        #expect(atos?.isIn("/Exercises/Chapter1Latch/OtherBlock.swift") == false)
    }

    @Test("a race whose report names no file at all: still a race of that exercise, said honestly")
    func unsymbolized() throws {
        var run = Fixture.run("race-1.1", .exited(66))
        run.reports = TSanReport.parse(Fixture.text("darwin/race-1.1-unsymbolized.log"))
        #expect(run.reports.count == 1 && run.reports.allSatisfy { !$0.namesAnyFile })
        let outcome = grader.grade(Fixture.items("1.1", "1.2"), run)
        #expect(outcome.isolate.count == 2, "in a batch it cannot be placed: each exercise runs alone")
        let alone = try #require(grader.grade(Fixture.items("1.1"), run).verdicts.first)
        #expect(alone.kind == .race)
        #expect(alone.findings.contains { $0.kind == .race && $0.message.contains("names no source line") })
    }

    @Test("a trapped test under `swift test`: exit 1 with SwiftPM's line is the runner's signal, a crash as on Linux")
    func trapUnderSwiftTest() throws {
        let launch = TestLaunch(platform: Platform(.process), method: .swiftTest, packageRoot: URL(fileURLWithPath: "/p"), scratchPath: URL(fileURLWithPath: "/p/.build"),
                                sources: .exercises, only: nil)
        let output = Fixture.text("darwin/trap-5.1-swift-test-output.txt")
        #expect(launch.testProcessTermination(.exited(1), output: output) == .signaled(5))
        #expect(launch.testProcessTermination(.exited(1), output: "error: 1 test failed") == .exited(1))
        let binary = TestLaunch(platform: Platform(.process), method: .binary, packageRoot: URL(fileURLWithPath: "/p"), scratchPath: URL(fileURLWithPath: "/p/.build"),
                                sources: .exercises, only: nil)
        #expect(binary.testProcessTermination(.exited(1), output: output) == .exited(1), "only `swift test` reports for its child")

        let linux = try #require(grader.grade(Fixture.items("5.1"), Fixture.run("trap-5.1", .signaled(4))).verdicts.first)
        var run = Fixture.run("trap-5.1", .signaled(5))
        run.output = output
        let darwin = try #require(grader.grade(Fixture.items("5.1"), run).verdicts.first)
        #expect(darwin.kind == linux.kind && darwin.kind == .crash)
    }

    @Test("the crash report places the trap where gdb does, with libdispatch's own words")
    func crashReport() throws {
        let suffix = "/Exercises/Chapter5BuggyCounter/HitCounter.swift"
        let report = try #require(CrashReport(ips: Fixture.text("darwin/trap-5.1.ips")))
        #expect(report.processName == "swiftpm-testing-helper" && report.signal == "SIGTRAP")
        #expect(report.applicationSpecific == ["BUG IN CLIENT OF LIBDISPATCH: Unbalanced call to dispatch_group_leave()"])
        let darwin = try #require(CrashStack(crashReport: report, learnerFileSuffix: suffix))
        let linux = try #require(CrashStack(gdbOutput: Fixture.text("trap-5.1/gdb-backtrace.txt"), learnerFileSuffix: suffix))
        #expect(darwin.line == linux.line && darwin.line == 12)
        #expect(darwin.file.map(Layout.trimmed) == linux.file.map(Layout.trimmed))
        #expect(darwin.reason == linux.reason && darwin.reason == Trap.unbalancedLeave.explained)
        #expect(CrashReport(ips: "{\"bug_type\":\"288\"}\n{}") == nil, "a report that is not a crash (bug_type 309) is not read")
    }

    @Test("process listings: /proc on Linux, `ps` on Darwin, the lister itself left out")
    func processListing() {
        let ps = """
              1 /sbin/launchd
            812 /Applications/Xcode.app/Contents/Developer/usr/bin/swiftpm-testing-helper --test-bundle-path /w/.build-drill/debug/T.xctest
            813 ps -A -o pid=,args= /w/.build-drill
            """
        #expect(Platform.processes(inPSOutput: ps, mentioning: "/w/.build-drill") == [812])
    }

    @Test("each platform's seam: how tests start, what locates a crash")
    func seam() {
        let darwin = Platform(.darwin)
        #expect(darwin.launchMethod == .swiftTest)
        if case .crashReports(let folder) = darwin.crashLocator {
            #expect(folder.path.hasSuffix("Library/Logs/DiagnosticReports"))
        } else {
            Issue.record("Darwin locates crashes from its crash reports")
        }
        #expect(!darwin.canIsolateSubmissions, "Darwin has no user namespaces")
    }
}

import Foundation
import Testing
import WorkbookWire
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

/// How the tests are started and stopped on macOS, where TSan's runtime must be inserted at launch
/// (see Package.swift and `ChildSanitizer`): held on Linux, on the same values a Mac's run uses, and
/// with real processes where Linux can stand in (`swift test`'s runner in a group of its own).
@Suite("Darwin: the launch, its children, and how a run is stopped")
struct DarwinLaunchTests {
    let folder = URL(fileURLWithPath: "/tmp/workbook-8810-3f2a9c1d")

    func launch(_ method: TestLaunch.Method, on platform: Platform = Platform(.process)) -> TestLaunch {
        TestLaunch(platform: platform, method: method, packageRoot: URL(fileURLWithPath: "/p"), scratchPath: URL(fileURLWithPath: "/p/.build-check"),
                   sources: .exercises, only: nil)
    }

    @Test("the toolchain floor is one value: Package.swift, Toolchain.floor, the README, the platform table, CI and the probe agree")
    func floorIsOneValue() throws {
        let root = Fixture.packageRoot
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.hasPrefix("// swift-tools-version:\(Toolchain.floor)\n"))
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let requirements = try #require(readme.components(separatedBy: "## Requirements").dropFirst().first?
            .components(separatedBy: "\n## ").first)
        #expect(requirements.contains("Swift \(Toolchain.floor) or later") && requirements.contains("Xcode \(Toolchain.floorXcode) or later"))
        #expect(!readme.contains("Swift 6.2 or later"), "no second floor anywhere in the README")
        let platforms = try String(contentsOf: root.appendingPathComponent("\(Layout.documentationFolder)/Platforms.md"), encoding: .utf8)
        #expect(platforms.contains("| the toolchain | Swift \(Toolchain.floor) or later | Xcode \(Toolchain.floorXcode) or later (Swift \(Toolchain.floor)) |"),
                "the platform table's toolchain row states the same floor")
        #expect(!platforms.contains("Swift 6.2 or later"), "no second floor anywhere in the platform table")
        let workflow = try String(contentsOf: root.appendingPathComponent(".github/workflows/ci.yml"), encoding: .utf8)
        #expect(workflow.contains("floor=\(Toolchain.floor)"), "the macOS job checks the selected Xcode's Swift against the floor")
        #expect(DoctorProbe.files["Package.swift"]?.hasPrefix("// swift-tools-version:\(Toolchain.floor)\n") == true)
    }

    @Test("`swift test --sanitize=thread` starts the tests on a Mac, and its children keep the runtime (strip_env=0)")
    func darwinLaunch() {
        let command = launch(.swiftTest).command([])
        #expect(command.arguments.starts(with: ["test", "--skip-build", "--disable-xctest", "--sanitize=thread"]))
        let darwin = LaunchedTestProcess(launch: launch(.swiftTest, on: Platform(.darwin)))
        let options = darwin.invocation(filters: [], testsAtOnce: 1, in: folder).environment["TSAN_OPTIONS"] ?? ""
        #expect(options.split(separator: " ").contains("strip_env=0"))
        let linux = LaunchedTestProcess(launch: launch(.binary, on: Platform(.linux)))
        #expect(!(linux.invocation(filters: [], testsAtOnce: 1, in: folder).environment["TSAN_OPTIONS"] ?? "").contains("strip_env"))
    }

    @Test("the test support hands an exit test's child the runtime the parent was started with, once, keeping what is set")
    func childEnvironment() {
        let runtime = "/Applications/Xcode.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/lib/clang/17/lib/darwin/libclang_rt.tsan_osx_dynamic.dylib"
        // As `swift test --sanitize=thread` leaves the runner: the runtime already stripped from the variable.
        let fresh = ChildSanitizer.childEnvironment(["TSAN_OPTIONS": "halt_on_error=0"], runtimePath: runtime)
        #expect(fresh["DYLD_INSERT_LIBRARIES"] == runtime)
        #expect(fresh["TSAN_OPTIONS"] == "halt_on_error=0 atexit_sleep_ms=0 strip_env=0")
        // Another library inserted: the runtime joins it.
        let other = ChildSanitizer.childEnvironment(["DYLD_INSERT_LIBRARIES": "/usr/lib/libgmalloc.dylib"], runtimePath: runtime)
        #expect(other["DYLD_INSERT_LIBRARIES"] == "/usr/lib/libgmalloc.dylib:\(runtime)")
        // Kept by strip_env=0 (under `workbook check`), even through another path to the same file: nothing to add.
        let kept = ChildSanitizer.childEnvironment(
            ["DYLD_INSERT_LIBRARIES": "/x/lib/swift/clang/lib/darwin/libclang_rt.tsan_osx_dynamic.dylib",
             "TSAN_OPTIONS": "strip_env=0 atexit_sleep_ms=0"], runtimePath: runtime)
        #expect(kept.isEmpty)
        // Linux: the runtime is linked into the test executable; only the exit sleep goes.
        #expect(ChildSanitizer.childEnvironment([:], runtimePath: nil) == ["TSAN_OPTIONS": "atexit_sleep_ms=0"])
    }

    @Test("SwiftPM 6.2's and 6.3's words for a runner that died of a signal are both read",
          arguments: ["darwin/trap-5.1-swift-test-output.txt", "darwin/trap-5.1-swift-test-output-6.2.txt"])
    func bothWordings(fixture: String) {
        let output = Fixture.text(fixture)
        #expect(launch(.swiftTest).testProcessTermination(.exited(1), output: output) == .signaled(5))
    }

    @Test("a run through `swift test` is stopped through it, its group, then what names its folder; the test executable with its group")
    func stoppingPlans() {
        #expect(launch(.swiftTest).stopping(marker: folder.path) == .swiftPM(marker: folder.path, grace: 2, platform: Platform(.process)))
        #expect(launch(.binary).stopping(marker: folder.path) == .group)
    }

    /// A stand-in for `swift test`: it starts a "runner" that leads a process group of its own (as
    /// SwiftPM's does: perl's `setpgrp`, on Linux and macOS alike) and names `marker`, which starts a
    /// child in its group that names nothing (an exit test's child on Linux), and waits. Both pids go
    /// into `pids`. The child sleeps 20 s: far longer than the test looks at it (about 5 s), and short
    /// enough that an interrupted test run does not leave it behind for long.
    func fakeSwiftTest(marker: String, pids: URL) -> [String] {
        let runner = #"sleep 20 & echo $! >> "$1"; wait"#
        return ["-c", #"perl -e 'setpgrp(0, 0); exec @ARGV' /bin/sh -c "$2" "$0" "$1" & echo $! >> "$1"; wait"#,
                marker, pids.path, runner]
    }

    func alive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        // A zombie waiting for its parent counts as ended.
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !stat.contains(") Z ")
    }

    func pids(in file: URL) -> [Int32] {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
    }

    @Test("the watchdog ends `swift test`'s runner, which leads its own group, and the runner's child (real processes)")
    func runnerGroupEnded() throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-stop-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: marker, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: marker) }
        let file = marker.appendingPathComponent("pids")

        // Control: with the plain group kill the runner and its child outlive the run — the test can see it.
        let plain = try ChildProcess.run("/bin/sh", fakeSwiftTest(marker: marker.path + "/a", pids: file), timeLimit: 1)
        #expect(plain.termination.isTimeout)
        let left = pids(in: file)
        #expect(left.count == 2 && left.allSatisfy(alive), "a group kill leaves the runner's group: \(left)")
        for pid in left { kill(-pid, SIGKILL); kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(at: file)

        let run = try ChildProcess.run("/bin/sh", fakeSwiftTest(marker: marker.path + "/b", pids: file), timeLimit: 1,
                                       stopping: .swiftPM(marker: marker.path + "/b", grace: 0.5, platform: Platform(.process)))
        #expect(run.termination.isTimeout)
        let started = pids(in: file)
        #expect(started.count == 2)
        let deadline = Date().addingTimeInterval(3)
        while started.contains(where: alive) && Date() < deadline { usleep(20_000) }
        #expect(!started.contains(where: alive), "the runner and its child are gone: \(started.filter(alive))")
        #expect(Platform(.process).processes(mentioning: marker.path + "/b").isEmpty)
    }

    @Test("an exit test's child that TSan aborted for coming in late is a set-up problem, never the learner's crash")
    func loadedTooLate() throws {
        let grader = Grader(sources: .exercises, readSource: { _ in nil })
        let abort = Fixture.text("darwin/exit-test-child-abort.txt")
        #expect(abort.contains(ChildSanitizer.loadedTooLate))
        // In the test process's own output (the runner itself started without the runtime).
        var run = Fixture.run("trap-5.1", .signaled(6))
        run.output = abort
        let whole = try #require(grader.grade(Fixture.items("5.1"), run).verdicts.first)
        #expect(whole.findings.first?.message == Says.sanitizerLoadedTooLate)
        // In what an exit test recorded of its child.
        var child = Fixture.run("trap-5.1", .exited(1))
        child.events.issues.append(EventStream.Issue(testID: "Chapter5BuggyCounterTests.Exercise5_1Tests/x()",
                                                     messages: [ChildSanitizer.childLoadedTooLate("recording 7 hits")]))
        let verdict = try #require(grader.grade(Fixture.items("5.1"), child).verdicts.first)
        #expect(verdict.findings.first?.message == Says.sanitizerLoadedTooLate)
    }

    @Test("a crash report is the run's own: its runner's parent is the `swift test` the grader started")
    func crashReportOfThisRun() throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-ips-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: reports) }
        let ours = Fixture.text("darwin/trap-5.1.ips")
        // Another run's runner crashed a moment later: newer, same name, another parent.
        let theirs = ours.replacingOccurrences(of: "\"parentPid\" : 8810", with: "\"parentPid\" : 9901")
        try ours.write(to: reports.appendingPathComponent("a.ips"), atomically: true, encoding: .utf8)
        try theirs.write(to: reports.appendingPathComponent("b.ips"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)],
                                              ofItemAtPath: reports.appendingPathComponent("b.ips").path)
        let since = Date().addingTimeInterval(-60)
        #expect(CrashReport.newest(in: reports, since: since, processNames: CrashReport.testRunnerNames, patience: 0)?.parentPID == 9901,
                "without the pid, the newest is taken: another run's")
        #expect(CrashReport.newest(in: reports, since: since, processNames: CrashReport.testRunnerNames, parentPID: 8810, patience: 0)?.parentPID == 8810)
        #expect(CrashReport.newest(in: reports, since: since, processNames: CrashReport.testRunnerNames, parentPID: 7000, patience: 0) == nil)
    }

    @Test("an exit test's child leaves no crash report on Darwin, so none is looked for; gdb follows it on Linux")
    func childCrashes() {
        #expect(!Platform(.darwin).placesCrashesInExitTestChildren)
        #expect(Platform(.linux).placesCrashesInExitTestChildren)
    }

    @Test("where each platform keeps TSan's runtime and the built tests")
    func runtimeAndProduct() {
        #expect(Platform(.darwin).sanitizerRuntime(resourcePath: "/X.xctoolchain/usr/lib/swift", arch: "arm64")
            == "/X.xctoolchain/usr/lib/swift/clang/lib/darwin/libclang_rt.tsan_osx_dynamic.dylib")
        #expect(Platform(.linux).sanitizerRuntime(resourcePath: "/opt/swift/usr/lib/swift", arch: "x86_64")
            == "/opt/swift/usr/lib/swift/clang/lib/linux/libclang_rt.tsan-x86_64.a")
        let scratch = URL(fileURLWithPath: "/p/.build-check")
        func launch(_ platform: Platform) -> TestLaunch {
            TestLaunch(platform: platform, packageRoot: URL(fileURLWithPath: "/p"), scratchPath: scratch, sources: .exercises, only: nil)
        }
        #expect(launch(Platform(.darwin)).builtFile.path
            == "/p/.build-check/debug/DispatchWorkbookPackageTests.xctest/Contents/MacOS/DispatchWorkbookPackageTests")
        #expect(launch(Platform(.linux)).builtFile.path == "/p/.build-check/debug/WorkbookSuites", "the suites' own executable")
        #expect(launch(Platform(.linux, launchAskedFor: "swift-test")).builtFile.path == "/p/.build-check/debug/DispatchWorkbookPackageTests.xctest")
        #expect(launch(Platform(.darwin)).buildEnvironment["WORKBOOK_SUITES"] == "", "macOS keeps the bundle `swift test` loads")
        #expect(launch(Platform(.linux)).buildEnvironment["WORKBOOK_SUITES"] == "executable")
    }

    @Test("one file under two spellings (macOS's /tmp and /private/tmp; here a link on the way) is one path to the workbook")
    func pathsThroughALink() throws {
        // As /tmp → /private/tmp: a link to a folder, with the package inside it.
        let real = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-real-\(UUID().uuidString.prefix(8))")
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-link-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: real.appendingPathComponent("package/Exercises"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        defer { try? FileManager.default.removeItem(at: link); try? FileManager.default.removeItem(at: real) }
        let file = real.appendingPathComponent("package/Exercises/X.swift")
        try "let x = 1\n".write(to: file, atomically: true, encoding: .utf8)
        let throughLink = link.appendingPathComponent("package")
        #expect(Layout(root: throughLink).relative(file) == "Exercises/X.swift")
        #expect(Layout(root: real.appendingPathComponent("package")).relative(throughLink.appendingPathComponent("Exercises/X.swift"))
            == "Exercises/X.swift")
        #expect(PackageMirror.files(under: throughLink) == ["Exercises/X.swift"])
        #expect(Layout.canonical(throughLink.appendingPathComponent("Exercises/X.swift")) == Layout.canonical(file))
    }

    @Test("a submission's file counts only under its exact name, as on Linux, whatever the disk's case rules")
    func exactNames() {
        let root = URL(fileURLWithPath: "/s")
        // A case-insensitive disk opens the path; its listing still spells the names the student wrote.
        let listing: (URL) -> [String] = { folder in
            switch folder.path {
            case "/s": ["Exercises"]
            case "/s/Exercises": ["Chapter1Latch"]
            case "/s/Exercises/Chapter1Latch": ["countdownblock.swift", "CountDownLatch.swift"]
            default: []
            }
        }
        #expect(!PackageMirror.exactlyNamed("Exercises/Chapter1Latch/CountdownBlock.swift", under: root, listing: listing))
        #expect(PackageMirror.exactlyNamed("Exercises/Chapter1Latch/CountDownLatch.swift", under: root, listing: listing))
        #expect(!PackageMirror.exactlyNamed("exercises/Chapter1Latch/CountDownLatch.swift", under: root, listing: listing))
    }

    @Test("TSan's path options are quoted: a space in Xcode's name does not end the value")
    func quotedPaths() {
        #expect(SanitizerSettings.option("external_symbolizer_path", path: "/Applications/Xcode 26.4.app/x/llvm-symbolizer")
            == "external_symbolizer_path=\"/Applications/Xcode 26.4.app/x/llvm-symbolizer\"")
    }

    @Test("a suite with no TSan in its process says, once, the command that grades races for its chapter")
    func withoutTheSanitizer() {
        let sentence = SanitizerAbsent.sentence(testModule: "Chapter3SemaphoresTests")
        #expect(sentence.contains("`swift test --sanitize=thread --filter Chapter3`") && sentence.contains("`swift run workbook check 3`"))
        #expect(sentence.contains("Thread Sanitizer") && sentence.contains("Diagnostics"))
        #expect(!sentence.dropLast().contains(". ") && sentence.hasSuffix("."), "one sentence: \(sentence)")
    }
}

extension Termination {
    var isTimeout: Bool { if case .timedOut = self { true } else { false } }
}

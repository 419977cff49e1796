import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

@Suite("Manifests, progress state, reset")
struct LearnerTests {
    // That every manifest names files that exist, a suite file and three hints per exercise is
    // `selftest --static`'s to say: StaticCheckTests holds the whole workbook to it.
    @Test("the workbook's manifests load, in the order of their numbers")
    func manifests() throws {
        let workbook = Fixture.workbook
        #expect(workbook.chapters.count >= 2)
        #expect(workbook.chapters.map(\.number) == workbook.chapters.map(\.number).sorted())
    }

    @Test("a hints file: exercises by `##`, steps by `###`, headings inside code are code")
    func hintFile() {
        let ladders = HintFile.parse("""
            # Hints
            Intro, not a hint.
            ## 2.1 Run them all
            ### Question
            Why?

            ### Shape
            ```swift
            ## not a heading
            let x = 1
            ```
            ## 2.2 Next
            ### Question
            What?
            """)
        #expect(ladders["2.1"]?.map(\.name) == ["Question", "Shape"])
        #expect(ladders["2.1"]?.first?.text == "Why?")
        #expect(ladders["2.1"]?.last?.text == "```swift\n## not a heading\nlet x = 1\n```")
        #expect(ladders["2.2"] == [HintStep(name: "Question", text: "What?")])
    }

    @Test("names a learner types: 1.1, a chapter number, Chapter1, a file name; unknown names list the known")
    func names() throws {
        let workbook = Fixture.workbook
        #expect(try workbook.select(["1.1"]).map(\.exercise.id) == ["1.1"])
        #expect(try workbook.select(["1"]).map(\.exercise.id) == ["1.1", "1.2", "1.3"])
        #expect(try workbook.select(["Chapter1"]).count == 3)
        #expect(try workbook.select(["chapter1latch"]).count == 3)
        #expect(try workbook.select(["CountdownBlock.swift"]).map(\.exercise.id) == ["1.1"])
        #expect(try workbook.select([]).count == workbook.allExercises.count)
        #expect(throws: WorkbookError.self) { try workbook.select(["9.9"]) }
        do {
            _ = try workbook.select(["nope"])
        } catch {
            #expect("\(error)".contains("1.1"))
        }
    }

    @Test("the state file round-trips, and a damaged or newer one is refused with a plain message")
    func state() throws {
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent(".workbook-state.json")
        #expect(try LearnerState.load(from: file) == LearnerState())
        var state = LearnerState()
        state.done = ["1.1", "5.2"]
        state.hintsShown = ["1.1": 2]
        state.starterCommit = String(repeating: "a", count: 40)
        try state.save(to: file)
        #expect(try LearnerState.load(from: file) == state)

        try "{ not json".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: WorkbookError.self) { try LearnerState.load(from: file) }
        try #"{"version": 99, "done": [], "hintsShown": {}}"#.write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: WorkbookError.self) { try LearnerState.load(from: file) }
    }

    @Test("reset never loses the learner's work (fault 8): backup first, then the starter; frozen files are watched")
    func reset() throws {
        let root = try temporaryFolder()
        let chapterFolder = root.appendingPathComponent("Exercises/Chapter9Demo")
        try FileManager.default.createDirectory(at: chapterFolder, withIntermediateDirectories: true)
        try "// swift-tools-version:6.0\n".write(to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try #"{"number": 9, "title": "Demo", "summary": "s", "exercises": [{"id": "9.1", "title": "t", "file": "Demo.swift", "suite": "Exercise9_1Tests", "expectedFailure": "race", "hints": ["a", "b", "c"]}]}"#
            .write(to: chapterFolder.appendingPathComponent("chapter.json"), atomically: true, encoding: .utf8)
        let file = chapterFolder.appendingPathComponent("Demo.swift")
        try "let starter = 1\n".write(to: file, atomically: true, encoding: .utf8)
        try git(root, "init", "-q")
        try git(root, "add", "-A")
        try git(root, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "starters")

        let workbook = try Workbook(root: root)
        let starters = Starters(workbook: workbook)
        let commit = try #require(starters.currentCommit())
        let named = try workbook.exercise(named: "9.1")
        let (chapter, exercise) = (named.chapter, named.exercise)

        #expect(try starters.reset(chapter, exercise, commit: commit) == .unchanged)

        try "let mine = 2 // an hour of work\n".write(to: file, atomically: true, encoding: .utf8)
        // The learner commits their work: reset still restores the starter of the recorded commit.
        try git(root, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qam", "mine")
        guard case let .restored(backup?) = try starters.reset(chapter, exercise, commit: commit) else {
            Issue.record("the file was not restored")
            return
        }
        #expect(try String(contentsOf: backup, encoding: .utf8) == "let mine = 2 // an hour of work\n")
        #expect(try String(contentsOf: file, encoding: .utf8) == "let starter = 1\n")

        #expect(throws: WorkbookError.self) {
            try starters.reset(chapter, exercise, commit: String(repeating: "0", count: 40))
        }

        // A missing file comes back, with no backup to make.
        try FileManager.default.removeItem(at: file)
        #expect(try starters.reset(chapter, exercise, commit: commit) == .restored(backup: nil))
        #expect(try String(contentsOf: file, encoding: .utf8) == "let starter = 1\n")

        // Edits outside Exercises/ are named; edits inside are the learner's own business.
        #expect(starters.frozenChanges(since: commit).isEmpty)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Tests"), withIntermediateDirectories: true)
        try "// weakened".write(to: root.appendingPathComponent("Tests/Sneaky.swift"), atomically: true, encoding: .utf8)
        try "// swift-tools-version:6.0\n// edited\n".write(to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        #expect(starters.frozenChanges(since: commit) == ["Package.swift", "Tests/Sneaky.swift"])
        #expect(try String(contentsOf: file, encoding: .utf8) == "let starter = 1\n", "a failed reset changes nothing")
    }

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wb-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func git(_ root: URL, _ arguments: String...) throws {
        let result = try ChildProcess.run("git", ["-C", root.path] + arguments, timeLimit: 30)
        guard result.termination == .exited(0) else {
            throw WorkbookError.cannotStart(executable: "git \(arguments.joined(separator: " "))", reason: result.output)
        }
    }
}

@Suite("Reports for machines and people")
struct ReportTests {
    func sampleReport() -> CheckReport {
        let items = Fixture.items("1.1", "1.2")
        var passed = CheckReport.Result(chapter: items[0].chapter, exercise: items[0].exercise)
        passed.runs = [ExerciseVerdict(chapter: items[0].chapter, exercise: items[0].exercise, findings: [], testsRun: 3, testsFailed: 0, seconds: 1)]
        var failed = CheckReport.Result(chapter: items[1].chapter, exercise: items[1].exercise)
        failed.runs = [ExerciseVerdict(
            chapter: items[1].chapter, exercise: items[1].exercise,
            findings: [Finding(kind: .race, message: "Two threads changed `x` <at> the same time & more",
                               file: "Exercises/Chapter1Latch/AnimationLatch.swift", line: 20,
                               detail: String(repeating: "r", count: 2_000))],
            testsRun: 3, testsFailed: 1, seconds: 1)]
        return CheckReport(results: [passed, failed], runs: 1, buildSeconds: 1, seconds: 2)
    }

    @Test("--json: Exercism results v3 — task_id a number, message only on error, no output; our fields beside")
    func json() throws {
        let data = sampleReport().exercismJSON(in: Fixture.workbook)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(root["version"] as? Int == 3)
        #expect(root["status"] as? String == "fail")
        #expect(root["message"] == nil, "a top-level message only with status error")
        let tests = try #require(root["tests"] as? [[String: Any]])
        #expect(tests.count == 2)
        #expect(tests[0]["status"] as? String == "pass")
        #expect(tests[0]["task_id"] as? Int == 1)
        #expect(tests[1]["task_id"] as? Int == 2)
        #expect(tests[1]["exercise"] as? String == "1.2")
        #expect(tests[1]["status"] as? String == "fail")
        #expect(tests[1]["kind"] as? String == "race")
        #expect(tests[1]["location"] as? String == "Exercises/Chapter1Latch/AnimationLatch.swift:20")
        #expect(tests[1]["chapter"] as? Int == 1)
        #expect(tests[1]["output"] == nil, "output is the learner's own output only")
        #expect((tests[1]["detail"] as? String)?.count == 500)
        #expect(try JSONDecoder().decode(ExercismResults.self, from: data) == sampleReport().exercismResults(in: Fixture.workbook))

        var broken = CheckReport.Result(chapter: Fixture.items("1.1")[0].chapter, exercise: Fixture.items("1.1")[0].exercise)
        broken.compileErrors = [CompilerError(file: "/x/Exercises/Chapter1Latch/CountdownBlock.swift", line: 3, column: 1, message: "expected '}'")]
        let error = CheckReport(results: [broken], runs: 1, buildSeconds: 0, seconds: 0).exercismResults(in: Fixture.workbook)
        #expect(error.status == .error && error.message?.contains("expected '}'") == true)
        #expect(error.tests[0].status == .error && error.tests[0].kind == .compile)
    }

    @Test("every failure is also a `path:line:col: error: summary` line, as VS Code's swiftc problem matcher and Xcode read it: a race at TSan's column, a test's expectation, a hang at the top of the learner's file; full paths away from the package root")
    func diagnostics() throws {
        let named = Fixture.items("1.1")[0]
        let (chapter, exercise) = (named.chapter, named.exercise)
        var race = Finding(kind: .race, message: "Two threads changed `toComplete` (write, thread T5) … Protect them.",
                           file: "Exercises/Chapter1Latch/CountdownBlock.swift", line: 15)
        race.column = 9
        race.summary = "Two threads changed `toComplete` with nothing ordering the two accesses (lines 15 and 17)."
        var wrong = Finding(kind: .wrong, message: "whenZero ran twice. Read the lesson.",
                            file: "Tests/Chapter1LatchTests/Exercise1_1Tests.swift", line: 60, test: "exactly once")
        wrong.column = 13
        let hang = Finding(kind: .hang, message: "The tests made no progress for 10 s and were stopped. Something blocks forever.")
        var result = CheckReport.Result(chapter: chapter, exercise: exercise)
        result.runs = [ExerciseVerdict(chapter: chapter, exercise: exercise, findings: [race, wrong, hang], testsRun: 3, testsFailed: 2)]
        result.warnings = [PatternWarning(rule: "queue-per-call", line: 12, message: "`queue` is made anew on every call. Which calls share one?")]
        let report = CheckReport(results: [result], runs: 1, buildSeconds: 0, seconds: 0)
        // The pattern of the swiftc problem matcher VS Code users configure (and vscode-swift's).
        let matcher = /(.*):(\d+):(\d+):\s+(warning|error):\s+(.*)/
        let found = report.rendered(style: .plain, verbose: false, workbook: Fixture.workbook)
            .split(separator: "\n").compactMap { try? matcher.wholeMatch(in: String($0)) }
            .map { "\($0.1):\($0.2):\($0.3) \($0.4) \($0.5)" }
        #expect(found == [
            "Exercises/Chapter1Latch/CountdownBlock.swift:15:9 error data race: Two threads changed `toComplete` with nothing ordering the two accesses (lines 15 and 17).",
            "Exercises/Chapter1Latch/CountdownBlock.swift:1:1 error never finished: The tests made no progress for 10 s and were stopped.",
            "Tests/Chapter1LatchTests/Exercise1_1Tests.swift:60:13 error wrong result: whenZero ran twice.",
            "Exercises/Chapter1Latch/CountdownBlock.swift:12:1 warning `queue` is made anew on every call.",
        ], "\(found)")
        let elsewhere = PathStyle(root: URL(fileURLWithPath: "/home/ada/gcd"), currentDirectory: URL(fileURLWithPath: "/home/ada"))
        let full = report.rendered(style: .plain, verbose: false, workbook: Fixture.workbook, paths: elsewhere)
        #expect(full.contains("\n/home/ada/gcd/Exercises/Chapter1Latch/CountdownBlock.swift:15:9: error: data race: "))
        let here = PathStyle(root: URL(fileURLWithPath: "/home/ada/gcd"), currentDirectory: URL(fileURLWithPath: "/home/ada/gcd/"))
        #expect(here == .fromPackageRoot)
    }

    @Test("--junit: well-formed XML with one failure, special characters escaped")
    func junit() throws {
        let xml = sampleReport().junitXML()
        #expect(xml.contains(#"tests="2" failures="1""#))
        #expect(xml.contains("&lt;at&gt;") && xml.contains("&amp; more"))
        let document = try XMLDocument(xmlString: xml)
        #expect(try document.nodes(forXPath: "//testcase").count == 2)
        #expect(try document.nodes(forXPath: "//failure").count == 1)
    }

    @Test("the text report: ✔/✘ per exercise, the reason, the learner's file:line; no colour when plain")
    func text() {
        let text = sampleReport().rendered(style: .plain, verbose: false, workbook: Fixture.workbook)
        #expect(text.contains("✔ 1.1"))
        #expect(text.contains("✘ 1.2"))
        #expect(text.contains("data race"))
        #expect(text.contains("\nExercises/Chapter1Latch/AnimationLatch.swift:20:1: error: data race: Two threads changed `x` <at> the same time & more\n"))
        #expect(!text.contains("\u{1B}["))
        #expect(!text.contains("rrrrrrrr"), "raw reports only with --verbose")
        #expect(sampleReport().rendered(style: .plain, verbose: true, workbook: Fixture.workbook).contains("rrrrrrrr"))
        #expect(text.contains("1 of 2 exercises pass."))
        #expect(text.contains("\(Says.command("hint 1.2")) · \(Says.command("explain 1.2"))"), "a race points to its drawing")
        #expect(Style.removingEscapes("\u{1B}[90m↳ line\u{1B}[0m and \u{1B}[1;31mred\u{1B}[0m") == "↳ line and red")
        #expect(Style.plain.fitting("\u{1B}[2mdim\u{1B}[0m") == "dim")
        #expect(Style(color: true).fitting("\u{1B}[2mdim\u{1B}[0m") == "\u{1B}[2mdim\u{1B}[0m")
    }
}

@Suite("Suggested commands: as the learner starts the tool")
struct CommandFormTests {
    @Test("started by `swift run` (a .build folder, whatever its name) → `swift run workbook`; typed → as typed; another process → `workbook`",
          arguments: [("/home/ada/gcd/.build/debug/workbook", "swift run workbook"),
                      ("/home/ada/gcd/.build-ci/x86_64-unknown-linux-gnu/debug/workbook", "swift run workbook"),
                      ("workbook", "workbook"), ("./workbook", "./workbook"), ("/usr/local/bin/workbook", "/usr/local/bin/workbook"),
                      ("/Applications/Xcode.app/Contents/Developer/usr/bin/xctest", "workbook")])
    func detected(argv0: String, prefix: String) {
        let form = CommandForm(startedAs: argv0)
        #expect(form.prefix == prefix)
        #expect(form.line("check 1.2") == "\(prefix) check 1.2")
    }
}

import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
@testable import WorkbookMaintainer
import WorkbookEngineTestSupport

@Suite("Near-miss corpus")
struct CorpusTests {
    @Test("a near miss's first line declares its kind and says why it fails")
    func nearMissHeader() throws {
        let parsed = try CorpusEntry.parse(firstLine: "// near-miss race: the flag is set outside the queue.").get()
        #expect(parsed.0 == .fails(.race))
        #expect(parsed.1 == "the flag is set outside the queue.")
        #expect(try CorpusEntry.parse(firstLine: "// alternative: an NSLock.").get().0 == .passes)
    }

    @Test("headers that do not follow the format are refused with the reason", arguments: [
        "import Dispatch", "// near-miss racy: x", "// near-miss race:", "// near-miss race x", "// alternative:",
    ])
    func badHeaders(line: String) {
        guard case .failure = CorpusEntry.parse(firstLine: line) else {
            Issue.record("accepted \(line)")
            return
        }
    }

    static func entry(_ chapter: String, _ id: String, _ name: String, _ expectation: CorpusEntry.Expectation) -> CorpusEntry {
        CorpusEntry(chapter: chapter, exerciseID: id, file: URL(fileURLWithPath: "/c/\(id)-\(name).swift"),
                    expectation: expectation, why: name)
    }

    @Test("rounds swap one entry per exercise; a compile near miss has its chapter to itself")
    func rounds() {
        let entries = [
            Self.entry("C1", "1.1", "a", .fails(.race)), Self.entry("C1", "1.1", "b", .fails(.wrong)),
            Self.entry("C1", "1.1", "c", .fails(.compile)), Self.entry("C1", "1.2", "d", .passes),
            Self.entry("C2", "2.1", "e", .fails(.hang)),
        ]
        let rounds = CorpusProof.rounds(entries).map { $0.map(\.why) }
        #expect(rounds == [["a", "d", "e"], ["b"], ["c"]])
        #expect(Set(rounds.flatMap { $0 }).count == entries.count, "every entry is in exactly one round")
    }

    @Test("the workbook's own corpus follows the format, and names real exercises")
    func realCorpus() {
        let (entries, problems) = Fixture.workbook.corpus()
        #expect(problems.isEmpty, "\(problems)")
        for entry in entries {
            #expect(entry.why.count > 10, "\(entry.name) says too little about why")
        }
    }

    @Test("a near miss holds only with its declared kind; a race must be in the exercise's own file")
    func holds() throws {
        let named = try #require(Fixture.items("1.1").first)
        let (chapter, exercise) = (named.chapter, named.exercise)
        let race = ExerciseVerdict(chapter: chapter, exercise: exercise,
                                   findings: [Finding(kind: .race, message: "x", file: "Exercises/Chapter1Latch/CountdownBlock.swift", line: 3)],
                                   testsRun: 3, testsFailed: 0)
        #expect(CorpusProof.holds(race, .fails(.race)))
        #expect(!CorpusProof.holds(race, .fails(.wrong)))
        #expect(!CorpusProof.holds(race, .passes))
        var elsewhere = race
        elsewhere.findings[0].file = "Tests/WorkbookTestSupport/Tally.swift"
        #expect(!CorpusProof.holds(elsewhere, .fails(.race)))
        let clean = ExerciseVerdict(chapter: chapter, exercise: exercise, findings: [], testsRun: 3, testsFailed: 0)
        #expect(CorpusProof.holds(clean, .passes))
        #expect(!CorpusProof.holds(clean, .fails(.race)))
    }
}

@Suite("Package and manifests")
struct PackageTests {
    @Test("Package.swift reads exactly the build contract's variables, and derives the chapters from the manifests")
    func buildContract() throws {
        let manifest = try String(contentsOf: Fixture.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let read = Set(manifest.matches(of: /environment\["(WORKBOOK_[A-Z_]+)"\]/).map { String($0.1) })
        #expect(read == Set(BuildSettings.all), "Package.swift reads \(read.sorted()); the contract is \(BuildSettings.all)")
        #expect(!manifest.contains("\"Chapter1Latch\""), "no chapter is named in Package.swift: they come from Exercises/*/chapter.json")
    }

    @Test("The learner's tool leaves the maintainers' layer out: Package.swift adds it, with its condition, for any WORKBOOK_ENGINE, and only the maintainers' commands test that condition")
    func maintainersLayer() throws {
        let manifest = try String(contentsOf: Fixture.packageRoot.appendingPathComponent(Layout.packageManifest), encoding: .utf8)
        #expect(manifest.contains("let withMaintainers = environment[\"\(BuildSettings.engine)\"] != nil"))
        #expect(manifest.contains("(withMaintainers ? [\"WorkbookMaintainer\"] : [])"), "the tool depends on WorkbookMaintainer only with it")
        #expect(manifest.contains(".define(\"\(BuildSettings.maintainersCondition)\")"), "Package.swift compiles the tool with \(BuildSettings.maintainersCondition)")
        let commands = Fixture.packageRoot.appendingPathComponent("\(Layout.sourcesFolder)/\(Layout.toolProduct)")
        let files = try #require(FileManager.default.enumerator(at: commands, includingPropertiesForKeys: nil)?.allObjects as? [URL])
            .filter { $0.pathExtension == "swift" }
        var conditioned: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let conditions = Set(text.matches(of: /#if !?([A-Z_]+)/).map { String($0.1) })
            #expect(conditions.isSubset(of: [BuildSettings.maintainersCondition]), "\(file.lastPathComponent) tests \(conditions.sorted())")
            // Whatever imports the maintainers' layer does so only under the condition.
            if text.contains("import WorkbookMaintainer") {
                #expect(text.contains("#if \(BuildSettings.maintainersCondition)\nimport WorkbookMaintainer\n#endif"), "\(file.lastPathComponent) imports WorkbookMaintainer unconditionally")
            }
            if text.contains("try runInMaintainersBuild(.") { conditioned.append(file.deletingPathExtension().lastPathComponent) }
        }
        #expect(Set(conditioned) == ["Selftest", "Dimensions", "New"], "the maintainers' commands: \(conditioned.sorted())")
    }

    @Test("one package, one executable: nothing in Sources/ or the test support is `public` — what a module offers the next is `package`")
    func nothingPublic() throws {
        let folders = [Layout.sourcesFolder, "\(Layout.testsFolder)/WorkbookTestSupport", "\(Layout.testsFolder)/WorkbookEngineTestSupport"]
        var read = 0
        for folder in folders {
            let root = Fixture.packageRoot.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.allObjects as? [URL])
                .filter { $0.pathExtension == "swift" }
            for file in files {
                read += 1
                // Lines inside a multi-line string literal (the starters `workbook new` writes) are text.
                var inString = false
                for (index, line) in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    if !inString, line.contains(/^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?!=)/) {
                        Issue.record("\(file.path.dropFirst(Fixture.packageRoot.path.count + 1)):\(index + 1) declares something public: \(line)")
                    }
                    if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inString.toggle() }
                }
            }
        }
        #expect(read > 50, "read \(read) files")
    }

    @Test("Package.swift's engine test targets are Layout.engineTestTargets, each declared once at its folder of Tests/")
    func engineTestTargets() throws {
        let manifest = try String(contentsOf: Fixture.packageRoot.appendingPathComponent(Layout.packageManifest), encoding: .utf8)
        let list = try #require(manifest.firstMatch(of: /let engineTestTargets: Set<String> = \[([^\]]*)\]/), "Package.swift declares engineTestTargets")
        let declared = list.1.matches(of: /"([^"]+)"/).map { String($0.1) }
        #expect(declared.count == Set(declared).count, "\(declared) names a target twice")
        #expect(Set(declared) == Set(Layout.engineTestTargets), "Package.swift: \(declared.sorted()); Layout: \(Layout.engineTestTargets.sorted())")
        #expect(Set(Layout.engineTestSuites).isSubset(of: Layout.engineTestTargets))
        for target in Layout.engineTestTargets {
            let folder = "\(Layout.testsFolder)/\(target)"
            #expect(manifest.components(separatedBy: "name: \"\(target)\"").count == 2, "Package.swift declares \(target) once")
            #expect(manifest.contains("path: \"\(folder)\""), "\(target) is built from \(folder)")
            #expect(FileManager.default.fileExists(atPath: Fixture.packageRoot.appendingPathComponent(folder).path), "no \(folder)")
        }
    }
}

@Suite("Left-out suites")
struct LeftOutSuiteTests {
    @Test("every exercise whose starter does not compile has a stand-in suite that plain `swift test` builds in its place, which fails and says why")
    func compileStartersHaveStandIns() throws {
        var checked = 0
        for chapter in Fixture.workbook.chapters {
            for exercise in chapter.exercises where exercise.expectedFailure == .compile {
                let url = Fixture.packageRoot.appendingPathComponent("Tests/\(chapter.testModule)/LeftOut/\(exercise.suite).swift")
                let source = try #require(try? String(contentsOf: url, encoding: .utf8), "\(exercise.id) has no stand-in at \(url.path)")
                #expect(source.contains("struct \(exercise.suite) "), "the stand-in is named like the suite, so a --filter for the suite selects it")
                #expect(source.contains("recordLeftOut(exercise: \"\(exercise.id)\", chapter: \"\(chapter.name)\", file: \"\(exercise.file)\")"))
                checked += 1
            }
        }
        #expect(checked > 0, "no exercise's starter is of the compile kind: the stand-ins are dead code")
    }
}

@Suite("Pattern warnings")
struct PatternCheckTests {
    func rules(_ source: String) -> [String] { PatternCheck.matches(in: source).map { "\($0.line):\($0.rule)" } }

    @Test("sync onto a global queue, directly or through a name")
    func globalSync() {
        #expect(rules("DispatchQueue.global().sync { n += 1 }") == ["1:sync-on-global-queue"])
        #expect(rules("let q = DispatchQueue.global(qos: .utility)\nq.sync { n += 1 }") == ["2:sync-on-global-queue"])
        #expect(rules("private let q = DispatchQueue(label: \"x\")\nq.sync { n += 1 }").isEmpty)
    }

    @Test("a barrier on a global queue")
    func globalBarrier() {
        #expect(rules("DispatchQueue.global().async(flags: .barrier) { n = 1 }") == ["1:barrier-on-global-queue"])
        #expect(rules("let q = DispatchQueue(label: \"x\", attributes: .concurrent)\nq.async(flags: .barrier) { n = 1 }").isEmpty)
    }

    @Test("a timed wait whose result is ignored; a used result is fine")
    func ignoredTimedWait() {
        #expect(rules("    semaphore.wait(timeout: .now() + 1)") == ["1:ignored-timed-wait"])
        #expect(rules("    _ = semaphore.wait(timeout: .now() + 1)") == ["1:ignored-timed-wait"])
        #expect(rules("    _ = semaphore.wait(wallTimeout: .now() + 30)") == ["1:ignored-timed-wait"])
        #expect(rules("guard semaphore.wait(timeout: .now() + 1) == .success else { return }").isEmpty)
        #expect(rules("return group.wait(timeout: timeout)").isEmpty)
        #expect(rules("let result = group.wait(timeout: timeout)").isEmpty)
        #expect(rules("func wait(timeout: DispatchTime) -> DispatchTimeoutResult {\n    opened.wait(timeout: timeout)\n}").isEmpty,
                "the only line of a body is its return value")
        #expect(rules("func f() {\n    _ = opened.wait(timeout: .now() + 30)\n}") == ["2:ignored-timed-wait"],
                "`_ =` throws the value away, even as the only line of a body")
    }

    @Test("where the contract has no timeout, a wait that can give up fails: a try at .now(), no timeout, or waiting again do not")
    func timedWaitGivesUp() {
        func untimed(_ source: String) -> [String] {
            PatternCheck.matches(in: source, noDeadline: true).map { "\($0.line):\($0.rule)" }
        }
        #expect(untimed("if sem.wait(timeout: .now() + 30) == .timedOut { print(\"slow\") }") == ["1:timed-wait-gives-up"])
        #expect(untimed("guard sem.wait(wallTimeout: .now() + 5) == .success else { return }") == ["1:timed-wait-gives-up"])
        #expect(untimed("_ = group.wait(timeout: .now() + 30)") == ["1:timed-wait-gives-up"], "said once, by the stricter rule")
        #expect(untimed("let result = sem.wait(timeout: deadline)") == ["1:timed-wait-gives-up"])
        #expect(untimed("if sem.wait(timeout: .now()) == .success { start() }").isEmpty, "a try that never waits")
        #expect(untimed("guard sem.wait(timeout: DispatchTime.now()) == .success else { return }").isEmpty)
        #expect(untimed("_ = sem.wait(timeout: .distantFuture)").isEmpty, "no timeout at all")
        #expect(untimed("while sem.wait(timeout: .now() + 1) == .timedOut { print(\"still waiting\") }").isEmpty, "waits again")
        #expect(untimed("repeat {\n    log()\n} while sem.wait(timeout: .now() + 1) == .timedOut").isEmpty)
        #expect(untimed("while true {\n    if sem.wait(timeout: .now() + 1) == .success { break }\n}").isEmpty)
        #expect(untimed("for s in sources {\n    if sem.wait(timeout: .now() + 1) == .timedOut { continue }\n}") == ["2:timed-wait-gives-up"],
                "a `for` loop goes on to the next item: it does not wait again")
        #expect(rules("if sem.wait(timeout: .now() + 30) == .timedOut { print(\"slow\") }").isEmpty,
                "with a deadline in the contract, a looked-at result is the learner's to judge")
        let failures = PatternCheck.failures(in: "let r = sem.wait(timeout: .now() + 9)", file: "E.swift", noDeadline: true)
        #expect(failures.map(\.kind) == [.wrong] && failures.first?.line == 1)
    }

    @Test("which exercises take no deadline: read from their deadlines cell")
    func noDeadline() {
        let timed = Fixture.workbook.allExercises.filter { !$0.exercise.takesNoDeadline }.map(\.exercise.id)
        #expect(timed == ["1.3", "2.4"])
    }

    @Test("the rules that fail an exercise are findings, not warnings: an ignored timed wait, a sanitizer hook")
    func failingRules() {
        let source = "@_cdecl(\"__tsan_default_suppressions\")\nfunc s() {}\n_ = sem.wait(timeout: .now() + 30)\nDispatchQueue.global().sync { n += 1 }"
        #expect(rules(source) == ["1:sanitizer-hook", "3:ignored-timed-wait", "4:sync-on-global-queue"])
        #expect(PatternCheck.warnings(in: source).map(\.rule) == ["sync-on-global-queue"])
        let failures = PatternCheck.failures(in: source, file: "Exercises/X/Y.swift")
        #expect(failures.map(\.location) == ["Exercises/X/Y.swift:1", "Exercises/X/Y.swift:3"])
        #expect(failures.allSatisfy { $0.kind == .wrong })
        #expect(rules("// @_cdecl is not allowed\nlet text = \"__tsan_\"").isEmpty, "comments and strings are not code")
    }

    @Test("main.sync")
    func mainSync() {
        #expect(rules("DispatchQueue.main.sync { label = text }") == ["1:main-sync"])
    }

    @Test("sync onto the queue the block already runs on, and not after the block closed")
    func syncOntoOwnQueue() {
        let nested = """
        queue.async {
            let value = self.queue.sync { token }
        }
        queue.sync { token = 1 }
        """
        #expect(rules(nested) == ["2:sync-onto-own-queue"])
        #expect(rules("queue.sync { other.sync { x = 1 } }").isEmpty)
    }

    @Test("wait() inside a block on a queue that its signal also needs; not when the signal comes from elsewhere")
    func waitOnQueue() {
        let stuck = """
        queue.async {
            semaphore.wait()
            present()
        }
        api.load { queue.async { semaphore.signal() } }
        """
        #expect(rules(stuck) == ["2:wait-on-queue"])
        let fine = """
        queue.async {
            semaphore.wait()
            present { semaphore.signal() }
        }
        """
        #expect(rules(fine).isEmpty)
        let sameBlock = """
        queue.async {
            slots.wait()
            job {}
            slots.signal()
        }
        """
        #expect(rules(sameBlock).isEmpty, "a signal later in the same block comes after the wait")
    }

    @Test("a queue made on every call — the wrong fix of 1.1 and of 5.1 — is warned at the line that makes it; a warning, not a verdict")
    func queuePerCall() throws {
        let corpus = Fixture.workbook.corpus(of: Fixture.workbook.chapters).entries
        for name in ["1.1-queue-per-call", "5.1-queue-per-call"] {
            let entry = try #require(corpus.first { $0.name == name })
            let source = try String(contentsOf: entry.file, encoding: .utf8)
            let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
            let warned = PatternCheck.warnings(in: source).filter { $0.rule == "queue-per-call" }
            #expect(!warned.isEmpty, "\(name) is not warned")
            for warning in warned {
                #expect(lines[warning.line - 1].contains("DispatchQueue(label:"), "\(name): warned at \(lines[warning.line - 1])")
                #expect(warning.message.contains("made anew on every call"))
            }
            #expect(PatternCheck.failures(in: source, file: "E.swift").isEmpty, "a warning, never a failure")
        }
        #expect(rules("""
            func f() {
                DispatchQueue(label: "x").sync { count += 1 }
            }
            """) == ["2:queue-per-call"], "made and used in place")
    }

    @Test("a queue made once — a stored property, a `let` the returned block or a callback captures — is not warned")
    func queueMadeOnce() throws {
        #expect(rules("""
            final class Counter {
                private let queue = DispatchQueue(label: "x")
                func increment() { queue.sync { hits += 1 } }
            }
            func makeLatch(count: Int) -> () -> Void {
                let queue = DispatchQueue(label: "latch")
                var left = count
                return { queue.sync { left -= 1 } }
            }
            func runAll(_ work: [(@escaping () -> Void) -> Void]) {
                let counter = DispatchQueue(label: "run-all")
                for item in work { item { counter.sync { done += 1 } } }
            }
            """).isEmpty)
        // Every correct answer the workbook keeps: the solutions, and the near misses' alternatives.
        let alternatives = Fixture.workbook.corpus(of: Fixture.workbook.chapters).entries.filter { $0.expectation == .passes }.map(\.file)
        let solutions = Fixture.workbook.allExercises.map { Fixture.workbook.solutionFile($0.chapter, $0.exercise) }
        #expect(alternatives.count > 20)
        for file in solutions + alternatives {
            let rules = PatternCheck.warnings(in: try String(contentsOf: file, encoding: .utf8)).map(\.rule)
            #expect(!rules.contains("queue-per-call"), "\(file.lastPathComponent)")
        }
    }

    @Test("comments and strings do not count")
    func commentsAndStrings() {
        #expect(rules("// DispatchQueue.global().sync { } is wrong").isEmpty)
        #expect(rules("print(\"DispatchQueue.main.sync {\")").isEmpty)
    }

    @Test("the reference solutions raise no warning")
    func solutionsAreClean() throws {
        for item in Fixture.workbook.allExercises {
            let (chapter, exercise) = (item.chapter, item.exercise)
            let source = try String(contentsOf: Fixture.workbook.solutionFile(chapter, exercise), encoding: .utf8)
            #expect(PatternCheck.warnings(in: source).isEmpty, "\(exercise.id): \(PatternCheck.warnings(in: source))")
        }
    }
}

@Suite("Filters for one suite and one test")
struct TestFilterTests {
    @Test("a test's ID loses where it is declared, and its parentheses are escaped")
    func testFilter() {
        let filter = TestID("Chapter5BuggyCounterTests.Exercise5_1Tests/concurrentIncrementsAreExact()/Exercise5_1Tests.swift:47:5").filter
        #expect(filter == #"Chapter5BuggyCounterTests\.Exercise5_1Tests\/concurrentIncrementsAreExact\(\)(/|$)"#)
    }
}

@Suite("How tests are started")
struct TestLaunchTests {
    let root = URL(fileURLWithPath: "/p"), scratch = URL(fileURLWithPath: "/p/.build-check")

    @Test("the Linux way: the test executable, with Swift Testing's flags")
    func binary() {
        let launch = TestLaunch(platform: Platform(.process), method: .binary, packageRoot: root, scratchPath: scratch, sources: .exercises, only: nil)
        let command = launch.command(["--filter", "X"])
        #expect(command.executable == "/p/.build-check/debug/WorkbookSuites", "the suites' own executable, not SwiftPM's test product")
        #expect(command.arguments == ["--testing-library", "swift-testing", "--filter", "X"])
        #expect(launch.testBinary?.path == command.executable)
        #expect(launch.buildEnvironment["WORKBOOK_SUITES"] == "executable", "the build links that executable")
        #expect(!launch.buildsNoTestProduct, "the engine's tests are a test product")
        var grading = launch
        grading.withEngine = false
        #expect(grading.buildsNoTestProduct, "a grading build has no test product, so no index for test discovery")
        // The engine's own tests, from a build that has them, and another package's test product.
        let unitTests = launch.engineTests
        #expect(unitTests.command([]).executable == "/p/.build-check/debug/DispatchWorkbookPackageTests.xctest")
        #expect(unitTests.buildEnvironment == launch.buildEnvironment, "the same build")
    }

    @Test("the macOS way: swift test --skip-build over the same build, with the settings Package.swift read")
    func swiftTest() {
        let launch = TestLaunch(platform: Platform(.process), method: .swiftTest, packageRoot: root, scratchPath: scratch, sources: .solutions,
                                only: ["Chapter1", "Chapter5"])
        let command = launch.command(["--filter", "X"])
        #expect(command.executable == Platform(.process).swiftExecutable)
        #expect(command.arguments == ["test", "--skip-build", "--disable-xctest", "--sanitize=thread",
                                      "--package-path", "/p", "--scratch-path", "/p/.build-check", "--filter", "X"])
        #expect(command.environment == ["WORKBOOK_SOURCES": "solutions", "WORKBOOK_ONLY": "Chapter1,Chapter5", "WORKBOOK_EXCLUDE": "",
                                        "WORKBOOK_ENGINE": "", "WORKBOOK_SUITES": ""], "`swift test` finds the suites only in the test product")
        var grading = launch
        grading.withEngine = false
        #expect(grading.command([]).environment["WORKBOOK_ENGINE"] == "none", "a grading build's graph has no engine, and `swift test` must see the same")
        // An exercise left out of the build is left out of `swift test`'s package graph too.
        let narrowed = TestLaunch(platform: Platform(.process), method: .swiftTest, packageRoot: root, scratchPath: scratch, sources: .exercises, only: nil,
                                  exclude: ["Chapter4SerialQueues/AuthToken.swift", "Chapter4SerialQueuesTests/Exercise4_5Tests.swift"])
        #expect(narrowed.command([]).environment["WORKBOOK_EXCLUDE"]
            == "Chapter4SerialQueues/AuthToken.swift,Chapter4SerialQueuesTests/Exercise4_5Tests.swift")
        #expect(launch.testBinary == nil)
    }
}

@Suite("A missing exercise file")
struct MissingFileTests {
    @Test("is named as missing, with reset as the way back — for its exercise and for the rest of its chapter")
    func missingFile() throws {
        let chapter = try #require(Fixture.workbook.chapters.first)
        let gone = chapter.exercises[0], other = chapter.exercises[1]
        let error = CompilerError(file: "/x/Tests/\(chapter.testModule)/\(gone.suite).swift", line: 3, column: 1,
                                  message: "cannot find '\(gone.file)' in scope")
        var own = CheckReport.Result(chapter: chapter, exercise: gone)
        own.compileErrors = [error]
        own.missing = gone
        #expect(own.kind == .compile)
        #expect(own.findings.count == 1)
        #expect(own.findings[0].message.contains("\(gone.file) is missing"))
        #expect(own.findings[0].message.contains("workbook reset \(gone.id)"))
        var neighbour = CheckReport.Result(chapter: chapter, exercise: other)
        neighbour.compileErrors = [error]
        neighbour.missing = gone
        #expect(neighbour.findings[0].message.contains("cannot compile while"))
        #expect(neighbour.findings[0].message.contains("workbook reset \(gone.id)"))
    }
}

import Foundation
import Testing
import WorkbookWire
@testable import WorkbookCore
import WorkbookEngineTestSupport

@Suite("Grading recorded runs")
struct GraderTests {
    let grader = Grader(sources: .exercises, readSource: { path in
        path.hasSuffix("CountdownBlock.swift") ? Fixture.text("race-1.1/CountdownBlock.swift.txt") : nil
    })

    @Test("the graded file's form has the last word: a failing rule is added to the run's verdict, a form TSan cannot judge sets the run's findings aside")
    func judgingForm() throws {
        let hook = "@_cdecl(\"__tsan_default_suppressions\")\nfunc s() {}"
        let barrier = "DispatchQueue.global().async(flags: .barrier) { n = 1 }"
        let race = try #require(grader.grade(Fixture.items("1.1"), Fixture.run("race-1.1", .exited(66))).verdicts.first)
        let root = URL(fileURLWithPath: "/package")
        func judged(_ source: String) -> ExerciseVerdict {
            Grader(sources: .exercises, readSource: { $0 == "/package/Exercises/Chapter1Latch/CountdownBlock.swift" ? source : nil })
                .judgingForm(race, in: root)
        }
        let hooked = judged(hook)
        #expect(hooked.findings.count == race.findings.count + 1 && hooked.findings.last?.line == 1, "the rule's finding, at its line, beside the run's")
        let barriered = judged(barrier)
        #expect(!barriered.findings.contains { $0.kind == .race }, "the run's race is set aside")
        #expect(barriered.notes.contains(Says.runSetAside))
        #expect(judged("let n = 1") == race, "nothing to say of a plain file")
    }

    @Test("a race in the learner's file: kind race, their file and line, the variable, both accesses")
    func race() throws {
        let outcome = grader.grade(Fixture.items("1.1"), Fixture.run("race-1.1", .exited(66)))
        let verdict = try #require(outcome.verdicts.first)
        #expect(verdict.kind == .race)
        let race = try #require(verdict.findings.first { $0.kind == .race })
        #expect(race.file == "Exercises/Chapter1Latch/CountdownBlock.swift")
        #expect(race.line == 18)
        #expect(race.message.contains("`toComplete`"))
        #expect(race.message.contains("CountdownBlock.swift:18 (write"))
        #expect(race.repeats == 1, "two reports of the same race are folded into one finding")
        #expect(race.detail?.contains("WARNING: ThreadSanitizer") == true)
        #expect(verdict.isCaughtAsExpected)
    }

    @Test("a clean run of every solution passes")
    func clean() {
        let solutions = Grader(sources: .solutions)
        let items = Fixture.items("1.1", "1.2", "1.3", "5.1", "5.2", "5.3")
        let outcome = solutions.grade(items, Fixture.run("clean-solutions", .exited(0)))
        #expect(outcome.isolate.isEmpty)
        #expect(outcome.verdicts.count == 6)
        for verdict in outcome.verdicts {
            #expect(verdict.passed, "\(verdict.exercise.id): \(verdict.findings.map(\.message))")
            #expect(verdict.testsRun >= 2)
        }
    }

    @Test("each exercise's time is its own suite's, from the event stream, not its whole process's")
    func secondsPerSuite() throws {
        func event(_ kind: String, _ id: String, at seconds: Double) -> String {
            #"{"kind":"event","payload":{"instant":{"absolute":\#(seconds),"since1970":0},"kind":"\#(kind)","testID":"\#(id)","messages":[]},"version":"6.3.0"}"#
        }
        let items = Fixture.items("1.1", "1.2")
        let (first, second) = (SuiteID(items[0].chapter, items[0].exercise).name, SuiteID(items[1].chapter, items[1].exercise).name)
        let lines = [
            event("runStarted", "", at: 99),
            event("testStarted", first, at: 100), event("testStarted", second, at: 100.5),
            event("testStarted", first + "/a()/F.swift:1:1", at: 100.1), event("testEnded", first + "/a()/F.swift:1:1", at: 102),
            event("testEnded", first, at: 102.25),
            event("testStarted", second + "/b()/F.swift:2:1", at: 100.6), event("testEnded", second + "/b()/F.swift:2:1", at: 106),
            event("testEnded", second, at: 106.5),
            event("runEnded", "", at: 107),
        ]
        let events = EventStream(jsonLines: lines.joined(separator: "\n"))
        let run = RunArtifacts(events: events, reports: [], termination: .exited(0), output: "", seconds: 30)
        let verdicts = Grader(sources: .solutions).grade(items, run).verdicts
        #expect(verdicts.map(\.seconds) == [2.25, 6.0])

        // A suite that never ended ran until the stream's last event; one that never started, unknown.
        let cut = EventStream(jsonLines: lines.prefix(8).joined(separator: "\n"))
        #expect(cut.seconds(of: second) == 5.5)
        #expect(cut.seconds(of: "Chapter1LatchTests.Exercise1_3Tests") == nil)
        // A stream without instants (or none at all): the whole run's seconds.
        let silent = RunArtifacts(events: EventStream(), reports: [], termination: .exited(1), output: "", seconds: 30)
        let died = try #require(Grader(sources: .solutions).grade(Fixture.items("1.1"), silent).verdicts.first)
        #expect(died.seconds == 30)
    }

    @Test("all six starters in one run: each caught with the kind its manifest names")
    func starters() {
        let items = Fixture.items("1.1", "1.2", "1.3", "5.1", "5.2", "5.3")
        let outcome = grader.grade(items, Fixture.run("starters-ch1-ch5", .exited(66)))
        #expect(outcome.isolate.isEmpty)
        for verdict in outcome.verdicts {
            #expect(verdict.isCaughtAsExpected, "\(verdict.exercise.id) came out as \(String(describing: verdict.kind))")
        }
    }

    @Test("a bounded wait that ran out: kind hang with the test's sentence")
    func boundedWaitRanOut() throws {
        let verdict = try #require(grader.grade(Fixture.items("1.3"), Fixture.run("hang-1.3", .exited(1))).verdicts.first)
        #expect(verdict.kind == .hang)
        #expect(verdict.findings.contains { $0.message.hasPrefix("wait(timeout:)") }, "the marker is stripped, the sentence kept")
    }

    @Test("a trap (fault 3): alone it is a crash naming the signal and the test it was in")
    func trapAlone() throws {
        let verdict = try #require(grader.grade(Fixture.items("5.1"), Fixture.run("trap-5.1", .signaled(4))).verdicts.first)
        #expect(verdict.kind == .crash)
        let crash = try #require(verdict.findings.first { $0.kind == .crash })
        #expect(crash.message.contains("SIGILL"))
        #expect(crash.message.contains("leave()` without a matching `enter()`"))
    }

    @Test("a process that died in a batch: settled exercises keep their verdicts, the rest are isolated")
    func diedInBatch() {
        let items = Fixture.items("1.1", "1.2", "1.3", "5.1", "5.2", "5.3")
        let outcome = grader.grade(items, Fixture.run("died-batch", .signaled(4)))
        #expect(outcome.isolate.contains { $0.exercise.id == "5.1" })
        #expect(outcome.verdicts.count + outcome.isolate.count == 6)
        #expect(!outcome.verdicts.contains { $0.findings.contains { $0.kind == .crash } },
                "no exercise is blamed for a crash it may not have caused")
    }

    @Test("an endless loop (fault 4): killed by the watchdog, reported as a hang of that exercise")
    func hang() throws {
        let run = Fixture.run("hang-5.3", .timedOut(seconds: 11, quiet: 10))
        let verdict = try #require(grader.grade(Fixture.items("5.3"), run).verdicts.first)
        #expect(verdict.kind == .hang)
        #expect(verdict.findings.contains { $0.message.contains("no progress for 10 s") && $0.message.contains("an empty list completes at once") })
    }

    @Test("learner output faking passes and JSON events (fault 6) changes nothing: verdicts come from the stream")
    func fakeOutput() throws {
        let run = Fixture.run("fake-output-1.2", .exited(1))
        #expect(run.output.contains("✔ Test \"fake\" passed"), "the recording really holds the fake lines")
        let verdict = try #require(grader.grade(Fixture.items("1.2"), run).verdicts.first)
        #expect(!verdict.passed)
        #expect(verdict.kind == .wrong)
    }

    @Test("a report naming none of the batch's files: isolate in a batch, say so when alone")
    func unattributed() throws {
        let report = TSanReport.parse("""
        WARNING: ThreadSanitizer: data race (pid=1)
          Write of size 8 at 0x1 by thread T2:
            #0 somewhere /elsewhere/Other.swift:3:1 (bin+0x1)
          Previous read of size 8 at 0x1 by thread T3:
            #0 somewhere /elsewhere/Other.swift:4:1 (bin+0x1)
        SUMMARY: ThreadSanitizer: data race /elsewhere/Other.swift:3:1 in somewhere
        """)
        var run = Fixture.run("clean-solutions", .exited(66))
        run.reports = report
        let both = Grader(sources: .solutions).grade(Fixture.items("1.1", "1.2"), run)
        #expect(both.isolate.count == 2)
        let alone = try #require(Grader(sources: .solutions).grade(Fixture.items("1.1"), run).verdicts.first)
        #expect(alone.kind == .race)
        #expect(alone.findings.contains { $0.message.contains("outside CountdownBlock.swift") })
    }

    @Test("a report on the test's own plain data (2.1, one countdown for every call): a lost ordering, at the test's read, in a batch too")
    func orderingLost() throws {
        var run = Fixture.run("clean-solutions", .exited(66))
        run.reports = TSanReport.parse(Fixture.text("ordering-2.1/tsan.log"))
        let test = "Chapter2GroupsTests.Exercise2_1Tests/completionSeesWhatCallbacksWrote()/Exercise2_1Tests.swift:272:6"
        run.events.names[test] = "what each function wrote before calling back is there for completion to read"
        let outcome = Grader(sources: .exercises).grade(Fixture.items("2.2", "2.1"), run)
        #expect(outcome.isolate.isEmpty, "the report names 2.1's suite: nothing to run again alone")
        let verdict = try #require(outcome.verdicts.first { $0.exercise.id == "2.1" })
        #expect(verdict.kind == .wrong, "the learner's file has no line in it: what it broke is an ordering")
        let finding = try #require(verdict.findings.first { $0.kind == .wrong })
        #expect(finding.file == "Tests/Chapter2GroupsTests/Exercise2_1Tests.swift" && finding.line == 284)
        #expect(finding.message.contains("Exercise2_1Tests.swift:284 (read, thread T11") && finding.message.contains("Exercise2_1Tests.swift:280 (write, thread T16"))
        #expect(finding.message.contains("RunAll.swift") && !finding.message.contains("toolchain"))
        #expect(finding.test == "what each function wrote before calling back is there for completion to read")
        #expect(outcome.verdicts.first { $0.exercise.id == "2.2" }?.findings.contains { $0.message.contains("Exercise2_1Tests") } == false)
    }

    @Test("a report on the test's own data, with the learner's code deeper in the read's stack: a data race when only TSan saw it, a lost ordering when the tests saw the result go wrong")
    func orderingSeenOrUnseen() throws {
        // A `.relaxed` countdown: the test writes before calling the latch's block, and reads in
        // `whenZero`, which the learner's block calls when its count reaches zero.
        let report = TSanReport.parse("""
            WARNING: ThreadSanitizer: data race (pid=1)
              Read of size 8 at 0x1 by thread T3:
                #0 closure #2 in Exercise1_1Tests.x() /w/Tests/Chapter1LatchTests/Exercise1_1Tests.swift:40:9 (bin+0x1)
                #1 closure #1 in makeLatch(count:whenZero:) /w/Exercises/Chapter1Latch/CountdownBlock.swift:5:13 (bin+0x2)
                #2 closure #1 in Exercise1_1Tests.x() /w/Tests/Chapter1LatchTests/Exercise1_1Tests.swift:36:9 (bin+0x3)
              Previous write of size 8 at 0x1 by thread T2:
                #0 closure #1 in Exercise1_1Tests.x() /w/Tests/Chapter1LatchTests/Exercise1_1Tests.swift:35:9 (bin+0x4)
            SUMMARY: ThreadSanitizer: data race /w/Tests/Chapter1LatchTests/Exercise1_1Tests.swift:40:9 in closure #2 in Exercise1_1Tests.x()
            """)
        let source = (1...8).map { $0 == 5 ? "            whenZero()" : "// line \($0)" }.joined(separator: "\n")
        let grader = Grader(sources: .exercises, readSource: { _ in source })
        var run = Fixture.run("clean-solutions", .exited(66))
        run.reports = report
        let unseen = try #require(grader.grade(Fixture.items("1.1"), run).verdicts.first)
        #expect(unseen.kind == .race, "the tests saw nothing wrong: only TSan saw the lost ordering")
        #expect(unseen.findings.first { $0.kind == .race }?.file?.hasSuffix("CountdownBlock.swift") == true)

        let test = "Chapter1LatchTests.Exercise1_1Tests/x()/Exercise1_1Tests.swift:30:6"
        run.events.issues.append(EventStream.Issue(testID: test, messages: ["Expectation failed: seen == 4"],
                                                   file: "Tests/Chapter1LatchTests/Exercise1_1Tests.swift", line: 41))
        let seen = try #require(grader.grade(Fixture.items("1.1"), run).verdicts.first)
        #expect(seen.kind == .wrong, "the tests saw the result go wrong: a lost ordering")
        #expect(seen.findings.contains { $0.kind == .wrong && $0.message.contains("test's own plain data") })
        #expect(!seen.findings.contains { $0.kind == .race })
    }

    @Test("the test's own data in a helper the chapter's suites share, reached through the learner's code: a lost ordering there, not a race outside the file")
    func orderingInAChapterHelper() throws {
        // 1.1's starter, as `check 1.1` met it: `whenZero` ran before the last caller had written its
        // slot, so the helper's read (in `whenZero`) and a caller's write have nothing ordering them.
        let text = """
            WARNING: ThreadSanitizer: data race (pid=1)
              Read of size 8 at 0x1 by thread T33:
                #0 __tsan_memcpy /llvm/compiler-rt/lib/tsan/rtl/tsan_interceptors_memintrinsics.cpp:27:3 (WorkbookSuites+0x1)
                #1 closure #1 in closure #1 in closure #1 in expectWhenZeroSeesWhatEveryCallerWrote<A>(make:call:alsoVerify:sourceLocation:) /w/Tests/Chapter1LatchTests/LatchTestSupport.swift (WorkbookSuites+0x2)
                #4 closure #1 in closure #1 in expectWhenZeroSeesWhatEveryCallerWrote<A>(make:call:alsoVerify:sourceLocation:) /w/Tests/Chapter1LatchTests/LatchTestSupport.swift:295:39 (WorkbookSuites+0x3)
                #6 closure #1 in closure #1 in makeLatch(count:whenZero:) /w/Exercises/Chapter1Latch/CountdownBlock.swift:28:17 (WorkbookSuites+0x4)
                #14 closure #2 in Exercise1_1Tests.whenZeroSeesWhatEveryCallerWrote() /w/Tests/Chapter1LatchTests/Exercise1_1Tests.swift:167:139 (WorkbookSuites+0x5)
                #17 closure #1 in gatedWait(threads:iterations:seconds:_:) /w/Tests/WorkbookTestSupport/StartGate.swift:57:47 (WorkbookSuites+0x6)
              Previous write of size 8 at 0x1 by thread T29:
                #0 closure #2 in expectWhenZeroSeesWhatEveryCallerWrote<A>(make:call:alsoVerify:sourceLocation:) /w/Tests/Chapter1LatchTests/LatchTestSupport.swift:299:31 (WorkbookSuites+0x7)
                #2 closure #1 in gatedWait(threads:iterations:seconds:_:) /w/Tests/WorkbookTestSupport/StartGate.swift:57:47 (WorkbookSuites+0x6)
            SUMMARY: ThreadSanitizer: data race /w/Tests/Chapter1LatchTests/LatchTestSupport.swift in closure #1 in closure #1 in closure #1 in expectWhenZeroSeesWhatEveryCallerWrote<A>(make:call:alsoVerify:sourceLocation:)
            """
        var run = Fixture.run("clean-solutions", .exited(66))
        run.reports = TSanReport.parse(text)
        let test = "Chapter1LatchTests.Exercise1_1Tests/whenZeroSeesWhatEveryCallerWrote()/Exercise1_1Tests.swift:160:6"
        run.events.names[test] = "what each of four threads wrote before its calls is visible inside whenZero"
        run.events.issues.append(EventStream.Issue(testID: test, messages: ["Expectation failed"],
                                                   file: "Tests/Chapter1LatchTests/LatchTestSupport.swift", line: 302))
        let outcome = grader.grade(Fixture.items("1.1", "1.2"), run)
        #expect(outcome.isolate.isEmpty, "the report reaches 1.1's file: nothing to run again alone")
        let verdict = try #require(outcome.verdicts.first { $0.exercise.id == "1.1" })
        #expect(verdict.kind == .wrong)
        #expect(!verdict.findings.contains { $0.message.contains("outside") || $0.message.contains("toolchain") })
        let finding = try #require(verdict.findings.first { $0.kind == .wrong && $0.message.contains("test's own plain data") })
        #expect(finding.file == "Tests/Chapter1LatchTests/LatchTestSupport.swift" && finding.line == 295 && finding.column == 39)
        #expect(finding.message.contains("LatchTestSupport.swift:295 (read, thread T33") && finding.message.contains("LatchTestSupport.swift:299 (write, thread T29"))
        #expect(finding.test == "what each of four threads wrote before its calls is visible inside whenZero")

        // The same accesses with no frame of the learner's: nothing says the learner's code led there.
        run.reports = TSanReport.parse(text.split(separator: "\n").filter { !$0.contains("CountdownBlock.swift") }.joined(separator: "\n"))
        let alone = try #require(grader.grade(Fixture.items("1.1"), run).verdicts.first)
        #expect(alone.findings.contains { $0.message.contains("outside CountdownBlock.swift") })
        #expect(!alone.findings.contains { $0.message.contains("test's own plain data") })
    }

    static let mutexCounter = """
        import Synchronization
        final class HitCounter {
            private let hits = Mutex(0)
            private var misses = 0
            func increment() {
                hits.withLock { value in
                    value += 1
                }
                misses += 1
            }
        }
        """

    /// A report of two accesses at the given lines of HitCounter.swift.
    static func report(lines: Int, _ other: Int) -> [TSanReport] {
        TSanReport.parse("""
        WARNING: ThreadSanitizer: Swift access race (pid=1)
          Modifying access of Swift variable at 0x1 by thread T2:
            #0 inc /w/Exercises/Chapter5BuggyCounter/HitCounter.swift:\(lines):27 (bin+0x1)
          Previous modifying access of Swift variable at 0x1 by thread T3:
            #0 inc /w/Exercises/Chapter5BuggyCounter/HitCounter.swift:\(other):27 (bin+0x1)
        """)
    }

    @Test("a report whose accesses all sit inside Mutex.withLock is a note, not a race: the tests decide")
    func mutexFalseAlarm() throws {
        let grader = Grader(sources: .exercises, readSource: { _ in Self.mutexCounter })
        var run = Fixture.run("clean-solutions", .exited(66))
        run.reports = Self.report(lines: 8, 8)
        let verdict = try #require(grader.grade(Fixture.items("5.1"), run).verdicts.first)
        #expect(verdict.findings.isEmpty, "\(verdict.findings.map(\.message))")
        #expect(verdict.passed, "the recorded tests passed, so the exercise passes")
        let note = try #require(verdict.notes.first)
        #expect(note.contains("Mutex") && note.contains("hits.withLock") && note.contains("HitCounter.swift:8"))
        #expect(Grader.guardingMutex(line: 8, of: Self.mutexCounter) == "hits")
        #expect(Grader.guardingMutex(line: 3, of: Self.mutexCounter) == nil)
        #expect(Grader.guardingMutex(line: 10, of: Self.mutexCounter) == nil)
    }

    /// The shape TSan gave a correct `Mutex` answer to 5.1 (recorded on Linux, Swift 6.3.1, 3 runs
    /// of 3 graded "data race" before this rule): the closure's own frame has no line, the frame below
    /// it is the line that calls `withLock`; a read's first frame is TSan's `memcpy`.
    static let mutexAnswer = """
        import Synchronization

        /// Counts hits from any number of threads.
        public final class HitCounter: Sendable {
            private let hits = Mutex(0)

            public init() {}

            /// Adds one hit.
            public func increment() {
                hits.withLock { $0 += 1 }
            }

            /// The number of hits so far.
            public var value: Int { hits.withLock { $0 } }
        }
        """

    @Test("a correct Mutex answer's recorded report shape — frames without a line, a memcpy on top — is the note, not a race")
    func mutexAnswerAsRecorded() throws {
        let grader = Grader(sources: .exercises, readSource: { _ in Self.mutexAnswer })
        var run = Fixture.run("clean-solutions", .exited(66))
        run.reports = TSanReport.parse("""
        WARNING: ThreadSanitizer: data race (pid=25543)
          Read of size 8 at 0x7b0800001a10 by thread T4:
            #0 __tsan_memcpy /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_interceptors_memintrinsics.cpp:27:3 (DispatchWorkbookPackageTests.xctest+0x8ce7e)
            #1 closure #1 in HitCounter.value.getter /w/Exercises/Chapter5BuggyCounter/HitCounter.swift (DispatchWorkbookPackageTests.xctest+0x1120e5)
            #2 HitCounter.value.getter /w/Exercises/Chapter5BuggyCounter/HitCounter.swift:15:34 (DispatchWorkbookPackageTests.xctest+0x1126f8)
          Previous write of size 8 at 0x7b0800001a10 by thread T3:
            #0 closure #1 in HitCounter.increment() /w/Exercises/Chapter5BuggyCounter/HitCounter.swift:11:28 (DispatchWorkbookPackageTests.xctest+0x11207d)
            #1 HitCounter.increment() /w/Exercises/Chapter5BuggyCounter/HitCounter.swift:11:14 (DispatchWorkbookPackageTests.xctest+0x1125a4)
        SUMMARY: ThreadSanitizer: data race /w/Exercises/Chapter5BuggyCounter/HitCounter.swift in closure #1 in HitCounter.value.getter
        """)
        let verdict = try #require(grader.grade(Fixture.items("5.1"), run).verdicts.first)
        #expect(verdict.passed, "\(verdict.findings.map(\.message))")
        #expect(verdict.notes.first?.contains("hits.withLock") == true)
    }

    @Test("no excuse for an NSLock's withLock, nor for two different Mutexes: TSan judges those, and they race")
    func otherLocksAreJudged() throws {
        let nslock = Self.mutexCounter.replacingOccurrences(of: "import Synchronization", with: "import Foundation")
            .replacingOccurrences(of: "private let hits = Mutex(0)", with: "private let hits = NSLock()")
        #expect(Grader.guardingMutex(line: 8, of: nslock) == nil)
        let grader = Grader(sources: .exercises, readSource: { _ in nslock })
        var run = Fixture.run("clean-solutions", .exited(66))
        run.reports = Self.report(lines: 8, 8)
        #expect(try #require(grader.grade(Fixture.items("5.1"), run).verdicts.first).kind == .race)

        let twoMutexes = """
            import Synchronization
            final class HitCounter {
                private let writes = Mutex(0)
                private let reads: Mutex<Int> = Mutex(0)
                var count = 0
                func increment() {
                    writes.withLock { _ in count += 1 }
                }
                var value: Int { reads.withLock { _ in count } }
            }
            """
        #expect(Grader.guardingMutex(line: 7, of: twoMutexes) == "writes" && Grader.guardingMutex(line: 9, of: twoMutexes) == "reads")
        let two = Grader(sources: .exercises, readSource: { _ in twoMutexes })
        run.reports = Self.report(lines: 7, 9)
        #expect(try #require(two.grade(Fixture.items("5.1"), run).verdicts.first).kind == .race)
    }

    @Test("one access inside withLock and one outside is the learner's race")
    func halfInsideWithLock() throws {
        let grader = Grader(sources: .exercises, readSource: { _ in Self.mutexCounter })
        var run = Fixture.run("clean-solutions", .exited(66))
        run.reports = Self.report(lines: 8, 10)
        let verdict = try #require(grader.grade(Fixture.items("5.1"), run).verdicts.first)
        #expect(verdict.kind == .race)
        #expect(verdict.notes.isEmpty)
        #expect(verdict.findings.first?.message.contains("false alarm") == false)
    }

    @Test("the race marker of the suites' TSan trait is a race-kind issue")
    func raceMarker() {
        let issue = EventStream.Issue(testID: "M.S/t()", messages: ["\(FailureMarker.race) the Thread Sanitizer reported a data race"], file: nil, line: nil)
        #expect(issue.kind == .race)
    }

    @Test("TSan's 'unexpected memory mapping' (fault 9) is said with its fix")
    func memoryMapping() throws {
        // The text TSan prints on such kernels (this machine's kernel does not provoke it).
        let output = "FATAL: ThreadSanitizer: unexpected memory mapping 0x7f2f1c000000-0x7f2f1c200000\n"
        let run = RunArtifacts(events: EventStream(), reports: [], termination: .exited(66), output: output)
        let verdict = try #require(grader.grade(Fixture.items("1.1"), run).verdicts.first)
        let finding = try #require(verdict.findings.first)
        #expect(finding.message.contains("setarch"))
        #expect(finding.message.contains("vm.mmap_rnd_bits"))
    }

    @Test("which variable a line changes")
    func variableNames() {
        let source = "a\n        toComplete -= 1\n    self.count = 3\n    foo()"
        #expect(Grader.variableName(inLine: 2, of: source) == "toComplete")
        #expect(Grader.variableName(inLine: 3, of: source) == "count")
        #expect(Grader.variableName(inLine: 4, of: source) == nil)
        let more = "queue.async { self.cache[key] = value }\nitems.append(x)\nreturn count\ndone.toggle()"
        #expect(Grader.variableName(inLine: 1, of: more) == "cache")
        #expect(Grader.variableName(inLine: 2, of: more) == "items")
        #expect(Grader.variableName(inLine: 3, of: more) == nil)
        #expect(Grader.variableName(inLine: 4, of: more) == "done")
        #expect(Grader.variableName(inLines: [3, 2], of: more) == "items", "a read's line names nothing; the write's does")
    }
}

@Suite("Grading a batch that a racy Dictionary crashed")
struct SegvBatchTests {
    @Test("exit 66 before the run ended: unfinished exercises isolated; alone, the race still outranks the crash")
    func segv() throws {
        let grader = Grader(sources: .exercises)
        // A starter that does not compile is never in the test binary (the builder leaves it out).
        let all = Fixture.workbook.allExercises.filter { $0.exercise.expectedFailure != .compile }.map(Fixture.asRecorded)
        let run = Fixture.run("segv-batch", .exited(66))
        let outcome = grader.grade(all, run)
        #expect(Set(outcome.isolate.map(\.exercise.id)) == ["3.2", "4.3"])
        #expect(outcome.verdicts.allSatisfy { $0.isCaughtAsExpected }, "the settled starters keep their verdicts")

        let alone = try #require(grader.grade(Fixture.items("4.3"), run).verdicts.first)
        #expect(alone.kind == .race)
        #expect(alone.findings.contains { $0.kind == .crash && $0.message.contains("SEGV") })
    }
}

@Suite("Locating a crash from a debugger's backtrace")
struct CrashStackTests {
    @Test("gdb's backtrace of the drill's trap: the learner's line and the unbalanced leave()")
    func trap() throws {
        let stack = try #require(CrashStack(
            gdbOutput: Fixture.text("trap-5.1/gdb-backtrace.txt"),
            learnerFileSuffix: "/Exercises/Chapter5BuggyCounter/HitCounter.swift"))
        #expect(stack.signal == "SIGILL")
        #expect(stack.line == 12)
        #expect(stack.reason?.contains("Unbalanced call to dispatch_group_leave()") == true)

        let item = Fixture.items("5.1")[0]
        let crashed = ExerciseVerdict(chapter: item.chapter, exercise: item.exercise,
                                      findings: [Finding(kind: .crash, message: "The test process crashed with SIGILL.")],
                                      testsRun: 0, testsFailed: 0)
        let located = crashed.locatingCrash(stack)
        #expect(located.findings[0].location == "Exercises/Chapter5BuggyCounter/HitCounter.swift:12")
        #expect(located.findings[0].message.contains("at line 12 of HitCounter.swift"))
        let backtrace = try #require(located.findings[0].detail, "--verbose shows the backtrace")
        #expect(backtrace.contains("#0") && backtrace.contains("HitCounter.swift:12"))
    }

    @Test("no signal in the output: nothing to say")
    func noCrash() {
        #expect(CrashStack(gdbOutput: "[Inferior 1 (process 1) exited with code 01]", learnerFileSuffix: "/x.swift") == nil)
    }
}

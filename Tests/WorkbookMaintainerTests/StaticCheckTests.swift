import Foundation
import Testing
@testable import WorkbookCore
@testable import WorkbookEngine
@testable import WorkbookMaintainer
import WorkbookEngineTestSupport

/// `selftest --static` and `workbook new`: the workbook's pieces correspond, a new exercise's pieces
/// correspond at once, and each piece taken away is one sentence naming it.
@Suite("The static check and new exercises")
struct StaticCheckTests {
    /// A workbook of one chapter with no exercise yet, in a new folder: what `workbook new` starts from.
    static func tinyWorkbook() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wb-new-\(UUID().uuidString)")
        let files = [
            "Package.swift": "// swift-tools-version:6.3\n",
            "Exercises/Chapter9Tiny/chapter.json": """
                {
                  "number": 9,
                  "title": "Tiny",
                  "summary": "A chapter to add exercises to.",
                  "exercises": []
                }

                """,
            "Exercises/Chapter9Tiny/README.md": "# Chapter 9 — Tiny\n\nThe idea.\n\n## Going further\n\nMore.\n",
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    /// Plans and writes a new exercise in the workbook at `root`.
    @discardableResult
    static func add(_ request: NewExercise.Request, at root: URL) throws -> NewExercise {
        let new = try NewExercise.plan(request, in: try Workbook(root: root)) { path in
            try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        }
        try new.write(root: root)
        return new
    }

    static func check(_ root: URL) throws -> (problems: [StaticFinding], toDos: [StaticFinding]) {
        let findings = StaticCheck(workbook: try Workbook(root: root)).run()
        return (findings.filter { $0.kind == .problem }, findings.filter { $0.kind == .toDo })
    }

    /// Every file under `root` with its contents.
    static func snapshot(_ root: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if let data = FileManager.default.contents(atPath: url.path) { files[Layout(root: root).relative(url)] = data }
        }
        return files
    }

    @Test("the workbook's every piece corresponds, and nothing is left to write")
    func workbookCorresponds() throws {
        let findings = StaticCheck(workbook: Fixture.workbook).run()
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test("a new exercise passes at once: every piece written, each TODO listed as still to write, at its line")
    func newExercisePassesAtOnce() throws {
        let root = try Self.tinyWorkbook()
        defer { try? FileManager.default.removeItem(at: root) }
        let new = try Self.add(NewExercise.Request(chapter: "9", title: "A bounded buffer"), at: root)
        #expect(new.exercise.id == "9.1" && new.exercise.file == "BoundedBuffer.swift" && new.exercise.suite == "Exercise9_1Tests")
        #expect(new.pieces.map(\.path) == [
            "Exercises/Chapter9Tiny/BoundedBuffer.swift", "Tests/Starters/Chapter9Tiny/BoundedBuffer.swift",
            "Solutions/Chapter9Tiny/BoundedBuffer.swift", "Tests/Chapter9TinyTests/Exercise9_1Tests.swift",
            "Solutions/Chapter9Tiny/hints.md", "Exercises/Chapter9Tiny/README.md", "Exercises/Chapter9Tiny/chapter.json",
        ])
        let (problems, toDos) = try Self.check(root)
        #expect(problems.isEmpty, "\(problems.map(\.description).joined(separator: "\n"))")
        // Ten dimensions; the starter, the solution and the suite; three hint steps; the lesson.
        #expect(toDos.count == 17, "\(toDos.map(\.description).joined(separator: "\n"))")
        #expect(toDos.filter { $0.file.hasSuffix("chapter.json") }.count == SuiteDimension.allCases.count)
        for toDo in toDos {
            let line = try #require(toDo.line, "\(toDo)")
            let text = try String(contentsOf: root.appendingPathComponent(toDo.file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)[line - 1]
            // A dimension's to-do is at its cell: "9.1 queues is still to declare …" at `"queues": {`.
            let dimension = toDo.sentence.split(separator: " ")[1]
            #expect(text.contains("TODO") || (toDo.file.hasSuffix("chapter.json") && text.contains("\"\(dimension)\": {")),
                    "\(toDo): its line is \(text)")
        }
        // The starter and its kept copy are equal; the suite's one test says it is not written.
        #expect(FileManager.default.contents(atPath: root.appendingPathComponent(new.pieces[0].path).path)
            == FileManager.default.contents(atPath: root.appendingPathComponent(new.pieces[1].path).path))
        let suite = try String(contentsOf: root.appendingPathComponent(new.pieces[3].path), encoding: .utf8)
        #expect(suite.contains("recordIssue(\"9.1's suite is not written yet"))
        #expect(suite.contains("@Suite(\"9.1 BoundedBuffer\", .gradedUnderTSan)\nstruct Exercise9_1Tests"))
        // The dimensions' own check (the `dimensions` command, its unit test) holds every cell to do.
        let workbook = try Workbook(root: root)
        #expect(workbook.dimensionProblems(workbook.dimensions()).count == SuiteDimension.allCases.count)
        #expect(workbook.hints(for: new.exercise, in: workbook.chapters[0]).map(\.name) == StaticCheck.hintSteps)

        let next = try Self.add(NewExercise.Request(chapter: "Chapter9", title: "The animation latch"), at: root)
        #expect(next.exercise.id == "9.2" && next.exercise.file == "AnimationLatch.swift")
        #expect(try Self.check(root).problems.isEmpty)
    }

    @Test("each piece taken away is one sentence that names it", arguments: [
        "Exercises/Chapter9Tiny/BoundedBuffer.swift", "Tests/Starters/Chapter9Tiny/BoundedBuffer.swift",
        "Solutions/Chapter9Tiny/BoundedBuffer.swift", "Tests/Chapter9TinyTests/Exercise9_1Tests.swift",
        "Solutions/Chapter9Tiny/hints.md", "Exercises/Chapter9Tiny/README.md",
    ])
    func eachPieceMissing(_ piece: String) throws {
        let root = try Self.tinyWorkbook()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.add(NewExercise.Request(chapter: "9", title: "A bounded buffer"), at: root)
        try FileManager.default.removeItem(at: root.appendingPathComponent(piece))
        let problems = try Self.check(root).problems
        #expect(problems.count == 1, "\(problems.map(\.description).joined(separator: "\n"))")
        #expect(problems.first?.description.contains(piece) == true, "\(problems.first?.description ?? "none")")
    }

    @Test("a section, a ladder step, a dimension cell or a suite's declaration taken away: one sentence each, where it is")
    func eachPartMissing() throws {
        let edits: [(file: String, from: String, to: String, says: String)] = [
            ("Exercises/Chapter9Tiny/README.md", "## Exercise 9.1 — A bounded buffer", "## Something else", "no heading that names Exercise 9.1"),
            ("Solutions/Chapter9Tiny/hints.md", "### Direction", "### Nudge", "hint steps are Question, Nudge, Shape"),
            ("Solutions/Chapter9Tiny/hints.md", "## 9.1 A bounded buffer", "## 9.9 Gone", "has no `## 9.1 …` section"),
            ("Exercises/Chapter9Tiny/chapter.json", "\"queues\": {", "\"queuez\": {", ""),
            ("Exercises/Chapter9Tiny/chapter.json", "\"suite\": \"Exercise9_1Tests\"", "\"suite\": \"Tests9_1\"", "name it Exercise9_1Tests"),
            ("Tests/Chapter9TinyTests/Exercise9_1Tests.swift", "@Suite(\"9.1 ", "@Suite(\"", "declares no `@Suite(\"9.1 …\""),
        ]
        for edit in edits {
            let root = try Self.tinyWorkbook()
            defer { try? FileManager.default.removeItem(at: root) }
            try Self.add(NewExercise.Request(chapter: "9", title: "A bounded buffer"), at: root)
            let url = root.appendingPathComponent(edit.file)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains(edit.from), "\(edit.file) has no \(edit.from)")
            try text.replacingOccurrences(of: edit.from, with: edit.to).write(to: url, atomically: true, encoding: .utf8)
            guard let workbook = try? Workbook(root: root) else {
                // An unknown dimension does not decode: the manifest is refused with its path.
                #expect(edit.to.contains("queuez"))
                #expect(throws: WorkbookError.self) { try Workbook(root: root) }
                continue
            }
            let problems = StaticCheck(workbook: workbook).run().filter { $0.kind == .problem }
            let names = problems.map(\.description).joined(separator: "\n")
            // A renamed ladder is also hints of an exercise the chapter lacks: two sentences, one per fact.
            #expect(problems.count == (edit.to == "## 9.9 Gone" ? 2 : 1), "\(edit.from) → \(edit.to):\n\(names)")
            #expect(problems.contains { $0.file == edit.file && $0.sentence.contains(edit.says) }, "\(edit.from) → \(edit.to):\n\(names)")
        }
    }

    @Test("a dimension left out of the manifest is one sentence at the exercise's entry")
    func dimensionMissing() throws {
        let root = try Self.tinyWorkbook()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.add(NewExercise.Request(chapter: "9", title: "A bounded buffer"), at: root)
        let url = root.appendingPathComponent("Exercises/Chapter9Tiny/chapter.json")
        var manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        var exercises = manifest["exercises"] as? [[String: Any]] ?? []
        var dimensions = exercises[0]["dimensions"] as? [String: Any] ?? [:]
        dimensions["queues"] = nil
        exercises[0]["dimensions"] = dimensions
        manifest["exercises"] = exercises
        try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted]).write(to: url)
        let (problems, toDos) = try Self.check(root)
        #expect(problems.map(\.sentence) == ["9.1 declares nothing for queues."])
        #expect(problems.first?.file == "Exercises/Chapter9Tiny/chapter.json" && problems.first?.line != nil)
        #expect(toDos.filter { $0.file.hasSuffix("chapter.json") }.count == SuiteDimension.allCases.count - 1)
    }

    @Test("a race-kind starter needs its recorded report, of its file as it is now; a recording of nothing is found")
    func recordings() throws {
        let root = try Self.tinyWorkbook()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.add(NewExercise.Request(chapter: "9", title: "A bounded buffer"), at: root)
        let manifest = root.appendingPathComponent("Exercises/Chapter9Tiny/chapter.json")
        try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "\"expectedFailure\": \"wrong\"", with: "\"expectedFailure\": \"race\"")
            .write(to: manifest, atomically: true, encoding: .utf8)
        let folder = root.appendingPathComponent(Layout.raceRecordings)
        #expect(try Self.check(root).problems.map(\.sentence).map { $0.contains("has no starter-9.1.log") } == [true])

        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("WARNING: ThreadSanitizer: data race\n".utf8).write(to: folder.appendingPathComponent("starter-9.1.log"))
        try Data("0000\n".utf8).write(to: folder.appendingPathComponent("starter-9.1.sha256"))
        try Data("x\n".utf8).write(to: folder.appendingPathComponent("starter-9.9.log"))
        let problems = try Self.check(root).problems
        #expect(problems.count == 2, "\(problems.map(\.description).joined(separator: "\n"))")
        #expect(problems.contains { $0.file == "Tests/Starters/Chapter9Tiny/BoundedBuffer.swift" && $0.sentence.contains("has changed since starter-9.1 was recorded") })
        #expect(problems.contains { $0.file == "\(Layout.raceRecordings)/starter-9.9.log" && $0.sentence.contains("recording of no race-kind") })

        let source = try String(contentsOf: root.appendingPathComponent("Tests/Starters/Chapter9Tiny/BoundedBuffer.swift"), encoding: .utf8)
        try Data((Selftest.recordingDigest(of: source) + "\n").utf8).write(to: folder.appendingPathComponent("starter-9.1.sha256"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("starter-9.9.log"))
        #expect(try Self.check(root).problems.isEmpty)
    }

    @Test("bad input and pieces that exist are refused with a sentence, and nothing is written")
    func refusals() throws {
        let root = try Self.tinyWorkbook()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.add(NewExercise.Request(chapter: "9", title: "A bounded buffer"), at: root)
        let before = Self.snapshot(root)
        let cases: [(NewExercise.Request, String)] = [
            (.init(chapter: "8", title: "X"), "bad"),
            (.init(chapter: "9", title: "  "), "bad"),
            (.init(chapter: "9", title: "Two\nlines"), "bad"),
            (.init(chapter: "9", title: "# A heading"), "bad"),
            (.init(chapter: "9", title: String(repeating: "x", count: 71)), "bad"),
            (.init(chapter: "9", title: "X", id: "8.2"), "bad"),
            (.init(chapter: "9", title: "X", id: "9.x"), "bad"),
            (.init(chapter: "9", title: "X", file: "lower.swift"), "bad"),
            (.init(chapter: "9", title: "X", file: "Sub/Dir.swift"), "bad"),
            (.init(chapter: "9", title: "42!"), "bad"),
            (.init(chapter: "9", title: "X", id: "9.1"), "exists"),
            (.init(chapter: "9", title: "A bounded buffer"), "exists"),
            (.init(chapter: "9", title: "Other", file: "BoundedBuffer.swift"), "exists"),
        ]
        for (request, expected) in cases {
            do {
                try Self.add(request, at: root)
                Issue.record("\(request) was accepted")
            } catch let error as NewExerciseError {
                switch (error, expected) {
                case (.badRequest, "bad"), (.exists, "exists"): break
                default: Issue.record("\(request): \(error), expected \(expected)")
                }
                #expect(!error.description.isEmpty)
            }
        }
        #expect(Self.snapshot(root) == before, "a refused request wrote something")
    }

    @Test("writing never overwrites: a file made after planning, or a manifest changed meanwhile, stops it before anything is written")
    func writeIsAllOrNothing() throws {
        let root = try Self.tinyWorkbook()
        defer { try? FileManager.default.removeItem(at: root) }
        let read: (String) -> String? = { try? String(contentsOf: root.appendingPathComponent($0), encoding: .utf8) }
        let new = try NewExercise.plan(.init(chapter: "9", title: "A bounded buffer"), in: try Workbook(root: root), reading: read)
        let suite = root.appendingPathComponent(new.pieces[3].path)
        try FileManager.default.createDirectory(at: suite.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("// someone's suite\n".utf8).write(to: suite)
        let before = Self.snapshot(root)
        #expect(throws: NewExerciseError.exists(Says.fileTaken(new.pieces[3].path))) { try new.write(root: root) }
        #expect(Self.snapshot(root) == before)

        try FileManager.default.removeItem(at: suite)
        let manifest = root.appendingPathComponent("Exercises/Chapter9Tiny/chapter.json")
        try (read("Exercises/Chapter9Tiny/chapter.json")! + " ").write(to: manifest, atomically: true, encoding: .utf8)
        let changed = Self.snapshot(root)
        #expect(throws: NewExerciseError.self) { try new.write(root: root) }
        #expect(Self.snapshot(root) == changed)
    }

    @Test("the manifest keeps its layout: the entry is added as json.dumps(indent=2) writes, and reads back as planned")
    func manifestLayout() throws {
        let chapter = try #require(Fixture.workbook.chapter(named: "5"))
        let manifest = try String(contentsOf: Fixture.workbook.layout.url(Layout.manifest(of: chapter.name)), encoding: .utf8)
        let new = try NewExercise.plan(.init(chapter: "5", title: "A bounded \"buffer\" / queue"), in: Fixture.workbook) { path in
            path == Layout.manifest(of: chapter.name) ? manifest : nil
        }
        #expect(new.exercise.id == "5.\(chapter.exercises.count + 1)")
        let text = try #require(new.pieces.last?.text)
        #expect(text.hasPrefix(String(manifest.dropLast("\n  ]\n}\n".count)) + ",\n    {\n      \"id\""))
        #expect(text.contains("      \"title\": \"A bounded \\\"buffer\\\" / queue\",\n"))
        #expect(text.hasSuffix("        }\n      }\n    }\n  ]\n}\n"))
        #expect(throws: NewExerciseError.cannotAdd(Says.manifestShape("x"))) {
            try NewExercise.added(new.exercise, to: "{\"exercises\": [{}]}", at: "x")
        }
    }

    @Test("the lesson's samples: a fence names its recording; a report in one that does not, or that has drifted, is found")
    func lessonSamples() throws {
        let lesson = """
            ## Exercise 1.1 — A countdown block
            ```tsan starter-1.1
            \(Fixture.text("races/starter-1.1.log"))
            ```
            ```
            WARNING: ThreadSanitizer: data race (pid=1)
            ```
            """
        let samples = LessonSamples.samples(in: lesson)
        #expect(samples.map(\.recording) == ["starter-1.1", nil])
        #expect(samples.first?.line == 2)
        #expect(LessonSamples.shape(of: samples[0].text) == LessonSamples.shape(of: Fixture.text("races/starter-1.1.log")))
        #expect(StaticCheck.heading("## Where `enter()` goes (Exercise 2.1)", names: "2.1"))
        #expect(!StaticCheck.heading("## Exercise 2.10 — More", names: "2.1"))
    }

    @Test("a finding is a compiler's line: path:line:col: error|warning: sentence")
    func findingFormat() {
        #expect(StaticFinding(.problem, "a/b.json", line: 3, column: 7, "x.").description == "a/b.json:3:7: error: x.")
        #expect(StaticFinding(.toDo, "a/b.md", line: 3, "y.").description == "a/b.md:3:1: warning: y.")
        #expect(StaticFinding(.problem, "a/c.swift", "z.").description == "a/c.swift: error: z.")
    }
}

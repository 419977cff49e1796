import Foundation
import Testing
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

/// A build that plays recorded outputs back: `answer` gives each build's result from what it was
/// asked to build; every request is remembered.
final class RecordedBuild: PackageBuild, @unchecked Sendable {
    private let answer: @Sendable (_ only: [String]?, _ exclude: [String]) -> (Int32, String)
    private let asked = Locked<[(only: [String]?, exclude: [String])]>([])
    var requests: [(only: [String]?, exclude: [String])] { asked.value }

    init(_ answer: @escaping @Sendable (_ only: [String]?, _ exclude: [String]) -> (Int32, String)) {
        self.answer = answer
    }

    func run(only: [String]?, exclude: [String]) throws -> ChildResult {
        asked.withLock { $0.append((only, exclude)) }
        let (code, output) = answer(only, exclude)
        return ChildResult(termination: .exited(code), output: output, outputTruncated: false, seconds: 0)
    }
}

@Suite("The builder's loop: build, read the errors, leave out, build again (recorded builds, no compiler)")
struct BuilderLoopTests {
    private func builder(_ build: RecordedBuild) -> Builder {
        var builder = Builder(workbook: Fixture.workbook, platform: Platform(.process), sources: .exercises,
                              scratchPath: FileManager.default.temporaryDirectory.appendingPathComponent("wb-loop-\(UUID().uuidString)"))
        builder.remembersExclusions = false
        builder.packageBuild = build
        return builder
    }

    @Test("the 4.5 starter: built again without 4.5 and its suite; every chapter built, 4.5 with its error")
    func leavesOneExerciseOut() throws {
        let build = RecordedBuild { _, exclude in
            exclude.contains("Chapter4SerialQueues/AuthToken.swift")
                ? (0, "Build complete!") : (1, Fixture.text("compile-error-4.5-build-output.txt"))
        }
        let result = try builder(build).build()
        #expect(build.requests.count == 2)
        #expect(build.requests.last?.exclude.contains("Chapter4SerialQueuesTests/Exercise4_5Tests.swift") == true)
        #expect(result.excluded.map(\.exercise.id) == ["4.5"])
        #expect(result.excluded.first?.errors.first?.line == 38)
        #expect(result.built.count == Fixture.workbook.chapters.count && result.broken.isEmpty)
        #expect(result.launch?.exclude.contains("Chapter4SerialQueues/AuthToken.swift") == true,
                "the tests are started with the same files left out")
    }

    @Test("errors in a chapter's tests: the chapter is dropped, the others built without it")
    func dropsAChapter() throws {
        let build = RecordedBuild { only, _ in
            only?.contains("Chapter3") == false ? (0, "Build complete!") : (1, Fixture.text("compile-error-ch3-tests-build-output.txt"))
        }
        let result = try builder(build).build()
        #expect(result.broken.map(\.chapter.number) == [3])
        #expect(!result.built.contains { $0.number == 3 } && result.built.count == Fixture.workbook.chapters.count - 1)
        #expect(build.requests.count == 2)
    }

    @Test("a build that fails outside every chapter stops with the compiler's words, after one try")
    func failsOutsideChapters() {
        let build = RecordedBuild { _, _ in (1, "/w/Sources/WorkbookKit/Grader.swift:3:1: error: expected declaration") }
        #expect(throws: WorkbookError.self) { try builder(build).build() }
        #expect(build.requests.count == 1)
    }
}

@Suite("The build stamp: a check skips SwiftPM only while nothing a build reads has changed")
struct BuildStampTests {
    /// A grading build of the chapters `only` names, of the package at `root` into `scratch`.
    private func launch(_ root: URL, _ scratch: URL, only: String) -> TestLaunch {
        var launch = TestLaunch(platform: Platform(.process), packageRoot: root, scratchPath: scratch, sources: .exercises, only: [only])
        launch.withEngine = false
        return launch
    }

    /// A package folder with one file in each build input, and a scratch path inside it.
    private func package() throws -> (root: URL, scratch: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wb-stamp-\(UUID().uuidString)")
        for folder in Layout.buildInputs {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("\(folder)/Part"), withIntermediateDirectories: true)
            try "let x = 1\n".write(to: root.appendingPathComponent("\(folder)/Part/File.swift"), atomically: true, encoding: .utf8)
        }
        try "// swift-tools-version: 6.2\n".write(to: root.appendingPathComponent(Layout.packageManifest), atomically: true, encoding: .utf8)
        let scratch = root.appendingPathComponent(".build-check")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return (root, scratch)
    }

    @Test("the same files and settings: the same stamp, kept and read back")
    func same() throws {
        let (root, scratch) = try package()
        defer { try? FileManager.default.removeItem(at: root) }
        let stamp = BuildStamp.current(of: launch(root, scratch, only: "Chapter5"))
        #expect(stamp == BuildStamp.current(of: launch(root, scratch, only: "Chapter5")))
        #expect(stamp.inputs.contains { $0.hasPrefix("Exercises/Part/File.swift ") })
        let file = BuildStamp.file(in: scratch, sources: .exercises)
        stamp.keep(in: file)
        #expect(BuildStamp.kept(in: file) == stamp)
        BuildStamp.forget(in: file)
        #expect(BuildStamp.kept(in: file) == nil)
    }

    @Test("a changed file, a new file, other settings or a rebuilt test executable: another stamp")
    func changed() throws {
        let (root, scratch) = try package()
        defer { try? FileManager.default.removeItem(at: root) }
        let settings = launch(root, scratch, only: "Chapter5")
        let before = BuildStamp.current(of: settings)
        #expect(before != BuildStamp.current(of: launch(root, scratch, only: "Chapter2")))

        // Same size, new bytes: the modification time tells.
        try "let y = 2\n".write(to: root.appendingPathComponent("Exercises/Part/File.swift"), atomically: false, encoding: .utf8)
        let edited = BuildStamp.current(of: settings)
        #expect(edited != before)

        try "".write(to: root.appendingPathComponent("Tests/Part/New.swift"), atomically: true, encoding: .utf8)
        let added = BuildStamp.current(of: settings)
        #expect(added != edited)

        let binary = settings.builtFile
        try FileManager.default.createDirectory(at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "built".write(to: binary, atomically: true, encoding: .utf8)
        var rebuilt = BuildStamp.current(of: settings)
        #expect(rebuilt.inputs == added.inputs && rebuilt != added, "the build's own files are its outputs")

        // Kept after a build, a stamp describes the inputs the build started from.
        rebuilt.keepInputs(of: before)
        #expect(rebuilt.inputs == before.inputs && rebuilt != BuildStamp.current(of: settings))
    }
}

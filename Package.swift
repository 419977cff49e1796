// swift-tools-version:6.3
//
// Dispatch Workbook — Grand Central Dispatch exercises graded under the Thread Sanitizer.
//
// The chapters are the folders of Exercises/ that hold a chapter.json (as the workbook reads them),
// in the order of the manifests' "number"; `ChapterN` names chapter N.
//
// Five environment variables shape the build; they are declared, with what each means, in
// Sources/WorkbookCore/Build/BuildSettings.swift, next to the code that sets them (SwiftPM reads this
// file again when they change):
//   WORKBOOK_SOURCES=solutions             the chapter modules from Solutions/ instead of Exercises/
//   WORKBOOK_ONLY=Chapter1,...             only these chapters ("none": the engine alone)
//   WORKBOOK_EXCLUDE=<target>/<file>,...   these files left out of their targets
//   WORKBOOK_ENGINE=none                   the chapters without the engine (grading builds)
//   WORKBOOK_ENGINE=tests                  the engine's own tests too (unset: the tool without them)
//   WORKBOOK_ENGINE=maintainers            the tool with the maintainers' commands (unset: without them)
//   WORKBOOK_SUITES=executable             the chapters' suites linked into the executable WorkbookSuites
//                                          instead of the test product (Linux; the grader's own runs)
// When WORKBOOK_EXCLUDE is not set at all (plain `swift test`, `swift build`), an exercise whose
// starter is meant not to compile ("expectedFailure": "compile") is left out while its file is still
// the untouched starter (equal to its kept copy in Tests/Starters), so that it does not stop the others;
// its suite's stand-in (Tests/<Chapter>Tests/LeftOut/) is built instead and fails, saying why. SwiftPM
// caches this file's evaluation by its text and the environment, so the decision is as old as the
// last change of either — the stand-in says that too, when the file has changed since.
import PackageDescription
import Foundation

/// A chapter as this file needs it: its folder and its number.
struct ChapterFolder {
    var name: String
    var number: Int
    /// What `WORKBOOK_ONLY` and `--filter` call it: "Chapter4".
    var shortName: String { "Chapter\(number)" }
}

/// The folders of Exercises/ with a chapter.json, in the order of their numbers.
let chapters: [ChapterFolder] = {
    let root = "\(Context.packageDirectory)/Exercises"
    let folders = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return folders.compactMap { folder -> ChapterFolder? in
        guard let data = FileManager.default.contents(atPath: "\(root)/\(folder)/chapter.json"),
              let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let number = manifest["number"] as? Int else { return nil }
        return ChapterFolder(name: folder, number: number)
    }.sorted { $0.number < $1.number }
}()

let environment = ProcessInfo.processInfo.environment
let sourceRoot = environment["WORKBOOK_SOURCES"] == "solutions" ? "Solutions" : "Exercises"
let only: Set<String>? = environment["WORKBOOK_ONLY"].flatMap { list in
    list.isEmpty ? nil : Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
}
/// `<target>/<file>` entries left out: `WORKBOOK_EXCLUDE`'s, or else the untouched starters that are
/// meant not to compile, with their suites.
let excludedByEnvironment: [String] = environment["WORKBOOK_EXCLUDE"].map { list in
    list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
} ?? (sourceRoot == "Exercises" ? untouchedStartersThatDoNotCompile() : [])

func untouchedStartersThatDoNotCompile() -> [String] {
    let root = Context.packageDirectory
    return chapters.map(\.name).flatMap { chapter -> [String] in
        guard let data = FileManager.default.contents(atPath: "\(root)/Exercises/\(chapter)/chapter.json"),
              let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let exercises = manifest["exercises"] as? [[String: Any]] else { return [] }
        let tests = (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/Tests/\(chapter)Tests")) ?? []
        return exercises.flatMap { exercise -> [String] in
            guard exercise["expectedFailure"] as? String == "compile",
                  let file = exercise["file"] as? String, let suite = exercise["suite"] as? String,
                  let mine = FileManager.default.contents(atPath: "\(root)/Exercises/\(chapter)/\(file)"),
                  mine == FileManager.default.contents(atPath: "\(root)/Tests/Starters/\(chapter)/\(file)") else { return [] }
            let suiteFiles = tests.filter { $0 == "\(suite).swift" || ($0.hasPrefix("\(suite)+") && $0.hasSuffix(".swift")) }
            return ["\(chapter)/\(file)"] + suiteFiles.map { "\(chapter)Tests/\($0)" }
        }
    }
}
func excluded(from target: String, in folder: String) -> [String] {
    excludedByEnvironment.compactMap { entry in
        guard entry.hasPrefix(target + "/") else { return nil }
        let file = String(entry.dropFirst(target.count + 1))
        return FileManager.default.fileExists(atPath: "\(Context.packageDirectory)/\(folder)/\(file)") ? file : nil
    }
}
/// A suite's stand-in (`Tests/<Chapter>Tests/LeftOut/<Suite>.swift`) is built in its place when plain
/// `swift test` leaves the suite out, so that running it fails and says why instead of running
/// nothing; otherwise the stand-in is left out.
func standInsNotNeeded(for chapter: String) -> [String] {
    let folder = "Tests/\(chapter)Tests/LeftOut"
    let standIns = (try? FileManager.default.contentsOfDirectory(atPath: "\(Context.packageDirectory)/\(folder)")) ?? []
    let plainBuild = environment["WORKBOOK_EXCLUDE"] == nil
    return standIns.filter { !(plainBuild && excludedByEnvironment.contains("\(chapter)Tests/\($0)")) }.map { "LeftOut/\($0)" }
}
/// Whether the chapters' suites are plain modules linked into `WorkbookSuites`, an executable that
/// hands them to Swift Testing, rather than test targets: what the grader starts on Linux, where a
/// test product costs every build SwiftPM's test discovery. On macOS the suites stay a bundle.
#if os(macOS)
let suitesAsExecutable = false
#else
let suitesAsExecutable = environment["WORKBOOK_SUITES"] == "executable"
#endif
let selectedChapters = chapters.filter { chapter in
    guard FileManager.default.fileExists(atPath: "\(Context.packageDirectory)/\(sourceRoot)/\(chapter.name)") else { return false }
    guard let only else { return true }
    return only.contains(chapter.shortName) || only.contains(chapter.name)
}.map(\.name)

// On Linux, chapter code and its tests always run under the Thread Sanitizer, so that a plain
// `swift test --filter Chapter1` grades races too: the tests are an executable, into which TSan's
// runtime is linked statically. The workbook tool itself is not instrumented.
//
// On macOS the tests are a bundle that SwiftPM's runner (`swiftpm-testing-helper`) loads with
// `dlopen`, and TSan's runtime there is a dylib that must be in the process from its launch: loaded
// later, with the bundle, it aborts ("Interceptors are not working. This may be because
// ThreadSanitizer is loaded too late (e.g. via dlopen)", compiler-rt `sanitizer_mac.cpp`,
// `VerifyInterceptorsWorking`). `swift test --sanitize=thread` inserts it at launch
// (`DYLD_INSERT_LIBRARIES`, SwiftPM `TestingSupport.swift`), and Xcode's Thread Sanitizer checkbox
// does the same, so on macOS this file adds nothing: the suites then run as they are and say, once per
// suite, to run `swift test --sanitize=thread --filter ChapterN` when TSan is not in the process.
#if os(macOS)
let tsanCompile: [SwiftSetting] = []
let tsanLink: [LinkerSetting] = []
#else
let tsanCompile: [SwiftSetting] = [.unsafeFlags(["-sanitize=thread"])]
let tsanLink: [LinkerSetting] = [.unsafeFlags(["-sanitize=thread"])]
#endif

/// The engine's own tests, built only when asked for: a test target per layer, named after it, the
/// command line's, and what they share. The same as `Layout.engineTestTargets` (a unit test holds it so).
let engineTestTargets: Set<String> = ["WorkbookCoreTests", "WorkbookEngineTests", "WorkbookClassroomTests",
                                      "WorkbookMaintainerTests", "WorkbookCLITests", "WorkbookEngineTestSupport"]
/// The targets of the engine: the `workbook` tool, its layers and their tests. Each layer depends
/// only on those below it, so the compiler holds the direction (Maintaining.md, "The engine's layers").
let engineTargets: Set<String> = engineTestTargets.union(["WorkbookCore", "WorkbookEngine", "WorkbookClassroom",
                                                            "WorkbookMaintainer", "workbook"])

/// Whether the tool is built with the maintainers' layer and commands: unless WORKBOOK_ENGINE is
/// unset (`maintainers`, `tests`, or empty for the self-test's build; `none` leaves the tool out).
let withMaintainers = environment["WORKBOOK_ENGINE"] != nil

var targets: [Target] = [
    // What the chapters' test support writes into the event stream and the engine reads, declared once.
    .target(
        name: "WorkbookWire",
        path: "Sources/WorkbookWire"
    ),
    // The engine, in layers, each depending only on those above it here.
    // The pure core: manifest, layout, findings and verdicts, reading reports and event streams,
    // grading, rendering, every sentence. It launches no process.
    .target(
        name: "WorkbookCore",
        dependencies: ["WorkbookWire"],
        path: "Sources/WorkbookCore"
    ),
    // The effects: building, running and watching processes, the platform's probes, the check
    // pipeline, the learner's session, doctor.
    .target(
        name: "WorkbookEngine",
        dependencies: ["WorkbookCore", "WorkbookWire"],
        path: "Sources/WorkbookEngine"
    ),
    // The teacher's side: student copies, the lock, the sandbox, batch grading, gradebooks.
    .target(
        name: "WorkbookClassroom",
        dependencies: ["WorkbookCore", "WorkbookEngine"],
        path: "Sources/WorkbookClassroom"
    ),
    // The maintainers' tools: the self-test, the corpus proof, the fault and classroom drills.
    .target(
        name: "WorkbookMaintainer",
        dependencies: ["WorkbookCore", "WorkbookEngine", "WorkbookClassroom", "WorkbookWire"],
        path: "Sources/WorkbookMaintainer"
    ),
    // The tool. The one a learner builds (WORKBOOK_ENGINE unset: `swift run workbook`, plain `swift
    // test`) leaves the maintainers' layer out, a sixth of its first build (Exercises/MEASUREMENTS.md,
    // M24); asked for a maintainers' command, it builds the tool with it and runs there.
    .executableTarget(
        name: "workbook",
        dependencies: ["WorkbookCore", "WorkbookEngine", "WorkbookClassroom"]
            + (withMaintainers ? ["WorkbookMaintainer"] : []),
        path: "Sources/workbook",
        swiftSettings: withMaintainers ? [.define("WORKBOOK_MAINTAINERS")] : []
    ),
    // Sends TSan's reports to a file the suites read between tests (plain `swift test`).
    .target(
        name: "WorkbookSanitizerReports",
        path: "Tests/WorkbookSanitizerReports"
    ),
    .target(
        name: "WorkbookTestSupport",
        dependencies: ["WorkbookWire", "WorkbookSanitizerReports"],
        path: "Tests/WorkbookTestSupport",
        swiftSettings: tsanCompile
    ),
    .testTarget(
        name: "WorkbookCLITests",
        dependencies: ["workbook"],
        path: "Tests/WorkbookCLITests"
    ),
    // The engine's tests, a target per layer: each holds the tests that need its module and none
    // above it, and depends on no higher layer. They read the recorded runs in Tests/Fixtures
    // (Layout.fixturesFolder).
    .target(
        name: "WorkbookEngineTestSupport",
        dependencies: ["WorkbookCore"],
        path: "Tests/WorkbookEngineTestSupport"
    ),
    .testTarget(
        name: "WorkbookCoreTests",
        dependencies: ["WorkbookWire", "WorkbookCore", "WorkbookEngineTestSupport"],
        path: "Tests/WorkbookCoreTests"
    ),
    .testTarget(
        name: "WorkbookEngineTests",
        dependencies: ["WorkbookWire", "WorkbookCore", "WorkbookEngine", "WorkbookEngineTestSupport"],
        path: "Tests/WorkbookEngineTests"
    ),
    .testTarget(
        name: "WorkbookClassroomTests",
        dependencies: ["WorkbookCore", "WorkbookEngine", "WorkbookClassroom", "WorkbookEngineTestSupport"],
        path: "Tests/WorkbookClassroomTests"
    ),
    .testTarget(
        name: "WorkbookMaintainerTests",
        dependencies: ["WorkbookCore", "WorkbookEngine", "WorkbookClassroom", "WorkbookMaintainer", "WorkbookEngineTestSupport"],
        path: "Tests/WorkbookMaintainerTests"
    ),
].filter { target in
    // A grading build leaves the engine out: the chapters, their suites and the test support are
    // all it runs.
    if environment["WORKBOOK_ENGINE"] == "none", engineTargets.contains(target.name) { return false }
    // Plain `swift test --filter ChapterN` (WORKBOOK_ENGINE unset) builds the chapters, their
    // suites and the tool, not the engine's own tests; `WORKBOOK_ENGINE=tests` (or the self-test's
    // build, which sets it empty) brings them in.
    if environment["WORKBOOK_ENGINE"] == nil, engineTestTargets.contains(target.name) { return false }
    // A student copy (`workbook export`) leaves the engine's own tests out.
    guard target.type == .test || engineTestTargets.contains(target.name), let path = target.path else { return true }
    return FileManager.default.fileExists(atPath: "\(Context.packageDirectory)/\(path)")
}

for chapter in selectedChapters {
    targets.append(.target(
        name: chapter,
        path: "\(sourceRoot)/\(chapter)",
        exclude: ["README.md", "chapter.json", "hints.md"].filter { file in
            FileManager.default.fileExists(atPath: "\(Context.packageDirectory)/\(sourceRoot)/\(chapter)/\(file)")
        } + excluded(from: chapter, in: "\(sourceRoot)/\(chapter)"),
        // Swift 5 mode: the starters must be allowed to contain the races the lessons teach.
        swiftSettings: [.swiftLanguageMode(.v5)] + tsanCompile
    ))
    let suites = "\(chapter)Tests"
    let dependencies: [Target.Dependency] = [.target(name: chapter), "WorkbookTestSupport"]
    let exclude = excluded(from: suites, in: "Tests/\(suites)") + standInsNotNeeded(for: chapter)
    targets.append(suitesAsExecutable
        ? .target(name: suites, dependencies: dependencies, path: "Tests/\(suites)", exclude: exclude,
                  swiftSettings: tsanCompile)
        : .testTarget(name: suites, dependencies: dependencies, path: "Tests/\(suites)", exclude: exclude,
                      swiftSettings: tsanCompile, linkerSettings: tsanLink))
}
if suitesAsExecutable {
    targets.append(.executableTarget(
        name: "WorkbookSuites",
        dependencies: selectedChapters.map { .target(name: "\($0)Tests") },
        path: "Tests/WorkbookSuites",
        linkerSettings: tsanLink
    ))
}

// Every Swift target: the index that SwiftPM writes while it builds leaves out the toolchain's own
// modules (Foundation, Dispatch, Testing…). Indexing them again in every compiler job took about a
// third of a first build (a chapter's grading build 18.7 → 13.2 s, the tool 17.5 → 15.6 s; Swift
// 6.3.1, Linux x86-64, two cores); editors index those modules themselves. The tool is not
// debugged as the chapters are: line tables are enough for its backtraces (15.6 → 14.6 s).
//
// The compiler splits a module's files into one batch per job the build may run at once, but into
// batches of at most 25 files by default (`-driver-batch-size-limit`; swift-driver at
// swift-6.3.1-RELEASE, Jobs/Planning.swift, `numberOfBatchPartitions`), and a module waits for every
// batch of the modules it imports. On two cores WorkbookCore's 57 files made three
// batches, the third compiled alone while a core idled: 6.3 s of the tool's build. With batches of up
// to 64 files it makes two (4.3 s; the tool's compile jobs 18.3 → 14.0 s, Swift 6.3.1, Linux x86-64,
// two cores). With more cores there are as many batches as before: one per job at once.
for index in targets.indices where targets[index].name != "WorkbookSanitizerReports" {
    let engine = engineTargets.contains(targets[index].name) || targets[index].name == "WorkbookWire"
    targets[index].swiftSettings = (targets[index].swiftSettings ?? [])
        + [.unsafeFlags(["-index-ignore-system-modules", "-driver-batch-size-limit", "64"]
                        + (engine ? ["-gline-tables-only"] : []))]
}

let package = Package(
    name: "DispatchWorkbook",
    platforms: [.macOS(.v15)],
    products: targets.contains { $0.name == "workbook" } ? [.executable(name: "workbook", targets: ["workbook"])] : [],
    targets: targets
)

// swift-tools-version:6.0
//
// Dispatch Workbook — Grand Central Dispatch exercises graded under the Thread Sanitizer.
//
// Three environment variables shape the build (SwiftPM re-reads this file when they change):
//   WORKBOOK_SOURCES=solutions   build the chapter modules from Solutions/ instead of Exercises/
//   WORKBOOK_ONLY=Chapter1,...   build only the named chapters (the grader uses this to keep a chapter
//                                that does not compile from stopping the others)
//   WORKBOOK_EXCLUDE=<target>/<file>,...   leave these files out of their targets, e.g.
//                                `Chapter4SerialQueues/AuthToken.swift,Chapter4SerialQueuesTests/Exercise4_5Tests.swift`
//                                (the grader uses this to keep an exercise that does not compile from
//                                stopping the rest of its chapter: its file and its suite go, the rest stays)
import PackageDescription
import Foundation

let chapters = [
    "Chapter1Latch",
    "Chapter2Groups",
    "Chapter3Semaphores",
    "Chapter4SerialQueues",
    "Chapter5BuggyCounter",
]

let environment = ProcessInfo.processInfo.environment
let sourceRoot = environment["WORKBOOK_SOURCES"] == "solutions" ? "Solutions" : "Exercises"
let only: Set<String>? = environment["WORKBOOK_ONLY"].flatMap { list in
    list.isEmpty ? nil : Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
}
/// Files `WORKBOOK_EXCLUDE` leaves out of `target`, relative to the target's folder.
let excludedByEnvironment: [String] = (environment["WORKBOOK_EXCLUDE"] ?? "")
    .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
func excluded(from target: String, in folder: String) -> [String] {
    excludedByEnvironment.compactMap { entry in
        guard entry.hasPrefix(target + "/") else { return nil }
        let file = String(entry.dropFirst(target.count + 1))
        return FileManager.default.fileExists(atPath: "\(Context.packageDirectory)/\(folder)/\(file)") ? file : nil
    }
}
let selectedChapters = chapters.filter { name in
    guard FileManager.default.fileExists(atPath: "\(Context.packageDirectory)/\(sourceRoot)/\(name)") else { return false }
    guard let only else { return true }
    // Exact: "Chapter1" names Chapter1Latch, never a Chapter10….
    let shortName = "Chapter" + name.dropFirst("Chapter".count).prefix(while: \.isNumber)
    return only.contains(shortName) || only.contains(name)
}

// Chapter code and its tests always run under the Thread Sanitizer, so that a plain
// `swift test --filter Chapter1` grades races too. The workbook tool itself is not instrumented.
let tsanCompile: [SwiftSetting] = [.unsafeFlags(["-sanitize=thread"])]
let tsanLink: [LinkerSetting] = [.unsafeFlags(["-sanitize=thread"])]

var targets: [Target] = [
    .target(
        name: "WorkbookKit",
        path: "Sources/WorkbookKit"
    ),
    .executableTarget(
        name: "workbook",
        dependencies: ["WorkbookKit"],
        path: "Sources/workbook"
    ),
    .target(
        name: "WorkbookTestSupport",
        path: "Tests/WorkbookTestSupport",
        swiftSettings: tsanCompile
    ),
    .testTarget(
        name: "WorkbookKitTests",
        dependencies: ["WorkbookKit"],
        path: "Tests/WorkbookKitTests",
        exclude: ["Fixtures"]
    ),
]

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
    targets.append(.testTarget(
        name: "\(chapter)Tests",
        dependencies: [.target(name: chapter), "WorkbookTestSupport"],
        path: "Tests/\(chapter)Tests",
        exclude: excluded(from: "\(chapter)Tests", in: "Tests/\(chapter)Tests"),
        swiftSettings: tsanCompile,
        linkerSettings: tsanLink
    ))
}

let package = Package(
    name: "DispatchWorkbook",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "workbook", targets: ["workbook"]),
        .library(name: "WorkbookKit", targets: ["WorkbookKit"]),
    ],
    targets: targets
)

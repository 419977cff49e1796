// swift-tools-version:6.0
//
// Dispatch Workbook — Grand Central Dispatch exercises graded under the Thread Sanitizer.
//
// Two environment variables shape the build (SwiftPM re-reads this file when they change):
//   WORKBOOK_SOURCES=solutions   build the chapter modules from Solutions/ instead of Exercises/
//   WORKBOOK_ONLY=Chapter1,...   build only the named chapters (the grader uses this to keep a chapter
//                                that does not compile from stopping the others)
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
    // What the chapters' test support writes into the event stream and the engine reads, declared once.
    .target(
        name: "WorkbookWire",
        path: "Sources/WorkbookWire"
    ),
    .target(
        name: "WorkbookKit",
        dependencies: ["WorkbookWire"],
        path: "Sources/WorkbookKit"
    ),
    .executableTarget(
        name: "workbook",
        dependencies: ["WorkbookKit"],
        path: "Sources/workbook"
    ),
    .target(
        name: "WorkbookTestSupport",
        dependencies: ["WorkbookWire"],
        path: "Tests/WorkbookTestSupport",
        swiftSettings: tsanCompile
    ),
    .testTarget(
        name: "WorkbookCLITests",
        dependencies: ["workbook"],
        path: "Tests/WorkbookCLITests"
    ),
    .testTarget(
        name: "WorkbookKitTests",
        dependencies: ["WorkbookKit"],
        path: "Tests/WorkbookKitTests",
        exclude: ["Fixtures"]
    ),
].filter { target in
    // A student copy (`workbook export`) leaves the engine's own tests out.
    guard target.type == .test, let path = target.path else { return true }
    return FileManager.default.fileExists(atPath: "\(Context.packageDirectory)/\(path)")
}

for chapter in selectedChapters {
    targets.append(.target(
        name: chapter,
        path: "\(sourceRoot)/\(chapter)",
        exclude: ["README.md", "chapter.json", "hints.md"].filter { file in
            FileManager.default.fileExists(atPath: "\(Context.packageDirectory)/\(sourceRoot)/\(chapter)/\(file)")
        },
        // Swift 5 mode: the starters must be allowed to contain the races the lessons teach.
        swiftSettings: [.swiftLanguageMode(.v5)] + tsanCompile
    ))
    targets.append(.testTarget(
        name: "\(chapter)Tests",
        dependencies: [.target(name: chapter), "WorkbookTestSupport"],
        path: "Tests/\(chapter)Tests",
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

import Foundation
@testable import WorkbookCore
@testable import WorkbookEngine

/// Helpers of the classroom tests: scratch folders, fixtures, and the optional tools (Python's YAML
/// module, a headless Chromium) some of them use when the machine has them.
package enum ClassroomFixture {
    package static let folder = Fixture.folder.appendingPathComponent("classroom")

    package static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    /// A new empty folder under the temporary directory.
    package static func scratch(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wb-classroom-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `text` to `path` under `root`, making its folders.
    package static func write(_ text: String, to path: String, under root: URL) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The real chapters, as a workbook rooted at `root`.
    package static func workbook(at root: URL) -> Workbook {
        Workbook(root: root, chapters: Fixture.workbook.chapters)
    }

    /// The first program of `names` found on PATH.
    package static func program(_ names: String...) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in names {
            for folder in path.split(separator: ":") {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// `true` when `python3` can `import yaml`.
    package static let hasPythonYAML: Bool = {
        guard let python = program("python3") else { return false }
        return (try? ChildProcess.run(python, ["-c", "import yaml"], timeLimit: 30).termination) == .exited(0)
    }()

    /// A headless Chromium, Debian's package or another's.
    package static let chromium = program("chromium", "chromium-browser")
}

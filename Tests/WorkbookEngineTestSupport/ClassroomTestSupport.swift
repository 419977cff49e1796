import Foundation
@testable import WorkbookCore

/// Helpers of the classroom tests: scratch folders and fixtures. The optional tools some of them use
/// when the machine has them are found in WorkbookClassroomTests (`OptionalTools.swift`), through the
/// engine's one executable lookup.
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
}

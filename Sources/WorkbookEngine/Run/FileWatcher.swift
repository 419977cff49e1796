import Foundation
import WorkbookCore

/// Notices changed files by polling modification times — no dependencies, works everywhere.
package struct FileWatcher: Sendable {
    let folder: URL
    private var stamps: [String: Date]

    package init(folder: URL) {
        self.folder = folder
        stamps = Self.scan(folder)
    }

    /// Paths added, removed or modified since the last call.
    package mutating func changes() -> [String] {
        let now = Self.scan(folder)
        var changed = now.filter { stamps[$0.key] != $0.value }.map(\.key)
        changed += stamps.keys.filter { now[$0] == nil }
        stamps = now
        return changed.sorted()
    }

    static func scan(_ folder: URL) -> [String: Date] {
        var result: [String: Date] = [:]
        guard let walker = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.contentModificationDateKey],
            options: [.skipsHiddenFiles]) else { return result }
        for case let url as URL in walker where url.pathExtension == "swift" {
            let date = (try? url.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
            result[Layout.canonical(url)] = date ?? .distantPast
        }
        return result
    }
}

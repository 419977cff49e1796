import Foundation
import WorkbookCore

/// A copy of the package in a scratch folder, kept in step with the original file by file, so that a
/// build of the copy stays incremental from one use to the next. The fault drill and the near-miss
/// corpus swap files into such copies.
package struct PackageMirror: Sendable {
    var source: URL
    package var copy: URL

    package init(source: URL, copy: URL) {
        self.source = source
        self.copy = copy
    }

    /// Makes the copy's files equal to the source's, touching only files whose bytes differ, and
    /// removing files the source no longer has.
    package func sync() throws {
        let fm = FileManager.default
        for folder in Layout.buildInputs {
            let from = source.appendingPathComponent(folder)
            let to = copy.appendingPathComponent(folder)
            let wanted = Self.files(under: from)
            for relative in wanted {
                let destination = to.appendingPathComponent(relative)
                try fm.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Self.replaceIfChanged(destination, with: Data(contentsOf: from.appendingPathComponent(relative)))
            }
            for stale in Set(Self.files(under: to)).subtracting(wanted) {
                try fm.removeItem(at: to.appendingPathComponent(stale))
            }
        }
        try Self.replaceIfChanged(copy.appendingPathComponent(Layout.packageManifest),
                                  with: Data(contentsOf: source.appendingPathComponent(Layout.packageManifest)))
    }

    /// Puts `replacement`'s bytes at `relative` inside the copy.
    package func swap(_ relative: String, with replacement: URL) throws {
        try Self.replaceIfChanged(copy.appendingPathComponent(relative), with: Data(contentsOf: replacement))
    }

    /// Regular files under `folder`, as paths relative to it.
    static func files(under folder: URL) -> [String] {
        let base = Layout.canonical(folder) + "/"
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walker.compactMap { item in
            guard let url = item as? URL, (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { return nil }
            let path = Layout.canonical(url)
            return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : nil
        }
    }

    /// Whether every component of `relative` under `root` is a name its folder holds exactly as
    /// spelled. On a case-insensitive file system (macOS's APFS, by default) a submission's
    /// `exercises/chapter1latch/countdownblock.swift` opens as `Exercises/Chapter1Latch/…`, where Linux
    /// — and the Classroom workflow, which runs on Linux — would not find it: one submission, two
    /// grades. Reading only exact names keeps them one.
    package static func exactlyNamed(_ relative: String, under root: URL,
                             listing: (URL) -> [String] = { (try? FileManager.default.contentsOfDirectory(atPath: $0.path)) ?? [] }) -> Bool {
        var folder = root
        for component in relative.split(separator: "/").map(String.init) {
            guard listing(folder).contains(component) else { return false }
            folder = folder.appendingPathComponent(component)
        }
        return true
    }

    package static func replaceIfChanged(_ file: URL, with data: Data) throws {
        if (try? Data(contentsOf: file)) == data { return }
        try data.write(to: file, options: .atomic)
    }
}

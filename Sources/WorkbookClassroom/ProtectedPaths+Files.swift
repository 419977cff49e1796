import Foundation
import WorkbookCore

extension ProtectedPaths {
    /// Every protected file under `root` that exists, by its path from `root` with `/` between
    /// folders, sorted. Build folders (`.build*`) and `.DS_Store` files are not part of it.
    static func list(under root: URL) throws -> [String] {
        let fm = FileManager.default
        var found = files.filter { fm.fileExists(atPath: root.appendingPathComponent($0).path) }
        for folder in folders {
            found += try filesRecursively(in: folder, under: root)
        }
        let exercises = root.appendingPathComponent(exercisesFolder)
        let chapters = (try? fm.contentsOfDirectory(atPath: exercises.path)) ?? []
        found += chapters.map { "\(exercisesFolder)/\($0)/\(manifestName)" }
            .filter { fm.fileExists(atPath: root.appendingPathComponent($0).path) }
        return found.sorted()
    }

    /// `true` for a file or folder name the lock leaves out wherever it is.
    private static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix(".build") || name == ".DS_Store"
    }

    /// The files (symbolic links included, not followed) under `root/folder`, by their paths from `root`.
    private static func filesRecursively(in folder: String, under root: URL) throws -> [String] {
        let start = root.appendingPathComponent(folder)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: start.path, isDirectory: &isFolder), isFolder.boolValue else { return [] }
        var found: [String] = []
        var pending = [folder]
        while let current = pending.popLast() {
            let url = root.appendingPathComponent(current)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where !isIgnored(name) {
                let path = "\(current)/\(name)"
                let values = try root.appendingPathComponent(path).resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
                if values.isDirectory == true && values.isSymbolicLink != true {
                    pending.append(path)
                } else {
                    found.append(path)
                }
            }
        }
        return found
    }
}

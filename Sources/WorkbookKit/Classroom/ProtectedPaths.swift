import Foundation

/// The files of a student copy that grading trusts and a student must not change: the package, the
/// tool, the tests, the chapter manifests and the autograding workflow.
///
/// Declared here once: `workbook.lock` checksums exactly these, and the workflow restores exactly
/// these from the assignment's template commit before grading.
enum ProtectedPaths {
    /// Single files, by their path from the package root.
    static let files = ["Package.swift", ClassroomWorkflow.path]
    /// Folders every file under which is protected.
    static let folders = ["Sources", testsFolder]
    static let testsFolder = "Tests"
    /// Each chapter's manifest: `Exercises/<Chapter>/chapter.json`.
    static let manifestName = "chapter.json"
    static let exercisesFolder = SourceSet.exercises.folder

    /// Every protected path as a git pathspec, for restoring them from a commit (the manifests as a
    /// glob that git, not the shell, expands).
    static var pathspecs: [String] { files + folders + ["\(exercisesFolder)/*/\(manifestName)"] }

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

extension ProtectedPaths {
    /// The chapters whose grade a protected file can sway. A chapter's own tests
    /// (`Tests/<Chapter>Tests/`), its near misses (`Tests/NearMisses/<Chapter>/`) and its manifest
    /// (`Exercises/<Chapter>/chapter.json`) concern that chapter only; anything else — the package,
    /// the tool, the shared test support, the workflow, a folder of no known chapter — concerns them all.
    static func chapters(concernedBy path: String, in workbook: Workbook) -> [Chapter] {
        let parts = path.split(separator: "/").map(String.init)
        let owner: Chapter? = switch parts.first {
        case testsFolder where parts.count > 3 && parts[1] == "NearMisses":
            workbook.chapters.first { $0.name == parts[2] }
        case testsFolder where parts.count > 2:
            workbook.chapters.first { $0.testModule == parts[1] }
        case exercisesFolder where parts.count == 3 && parts[2] == manifestName:
            workbook.chapters.first { $0.name == parts[1] }
        default:
            nil
        }
        return owner.map { [$0] } ?? workbook.chapters
    }
}

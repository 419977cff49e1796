import Foundation

/// The files of a student copy that grading trusts and a student must not change: the package, the
/// tool, the tests, the chapter manifests and the autograding workflow.
///
/// Declared here once: `workbook.lock` checksums exactly these, and the workflow restores exactly
/// these from the assignment's template commit before grading. The walk that lists them in a copy
/// is WorkbookClassroom's (`ProtectedPaths+Files.swift`).
package enum ProtectedPaths {
    /// Single files, by their path from the package root.
    package static let files = [Layout.packageManifest, Layout.classroomWorkflow]
    /// Folders every file under which is protected.
    package static let folders = [Layout.sourcesFolder, testsFolder]
    static let testsFolder = Layout.testsFolder
    /// Each chapter's manifest: `Exercises/<Chapter>/chapter.json`.
    package static let manifestName = Layout.chapterManifest
    package static let exercisesFolder = SourceSet.exercises.folder

    /// Every protected path as a git pathspec, for restoring them from a commit (the manifests as a
    /// glob that git, not the shell, expands).
    package static var pathspecs: [String] { files + folders + ["\(exercisesFolder)/*/\(manifestName)"] }
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

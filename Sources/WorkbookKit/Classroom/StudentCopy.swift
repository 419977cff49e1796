import Foundation

/// A student's copy of the workbook, as `workbook export` writes it: the package without the
/// reference solutions, the near misses (their correct alternatives are solutions too), the engine's
/// own tests and the maintainers' CI — plus the hints, the autograding workflow and `workbook.lock`.
public struct StudentCopy: Sendable {
    public var workbook: Workbook
    public var assignment: ClassroomAssignment

    public init(workbook: Workbook, assignment: ClassroomAssignment) {
        self.workbook = workbook
        self.assignment = assignment
    }

    /// What goes into the copy, by path from the package root: top-level entries, then what inside
    /// them stays behind.
    static let copied = [Layout.packageManifest, Layout.sourcesFolder, Layout.testsFolder,
                         SourceSet.exercises.folder, "README.md", ".gitignore", "LICENSE"]
    static let leftOut = ["\(Layout.testsFolder)/NearMisses", "\(Layout.testsFolder)/WorkbookKitTests",
                          "\(Layout.testsFolder)/WorkbookCLITests"]

    /// What `write(to:)` did.
    public struct Written: Sendable, Equatable {
        /// Files written, by path from the copy's root.
        public var files: Int
        /// Whether the copy is a git repository with one commit (the template commit the workflow restores from).
        public var committed: Bool
    }

    /// Writes the copy into `folder`, which must not exist or be empty: nothing is ever overwritten.
    public func write(to folder: URL) throws -> Written {
        let fm = FileManager.default
        if fm.fileExists(atPath: folder.path) {
            let contents = (try? fm.contentsOfDirectory(atPath: folder.path)) ?? ["?"]
            guard contents.isEmpty else {
                throw ClassroomError("\(folder.path) already exists and is not empty; export writes only into a new or empty folder, so nothing there is overwritten.", isBadInput: true)
            }
        }
        let source = workbook.root.standardizedFileURL
        // Inside a folder it copies, the copy would copy itself (a build folder is fine: none is copied).
        let inside = workbook.layout.relative(folder).split(separator: "/").first.map(String.init)
        guard !folder.standardizedFileURL.path.hasPrefix(source.path + "/") || !Self.copied.contains(inside ?? "") else {
            throw ClassroomError("The student copy cannot go inside \(inside ?? "") of the workbook (\(folder.path)); choose a folder outside it.", isBadInput: true)
        }
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)

        var files = 0
        for entry in Self.copied where fm.fileExists(atPath: source.appendingPathComponent(entry).path) {
            files += try copy(entry, from: source, to: folder)
        }
        // The hints stay available: `workbook hint` reads them from the solutions' folder.
        for chapter in workbook.chapters where fm.fileExists(atPath: workbook.layout.url(Layout.hints(chapter)).path) {
            files += try copy(Layout.hints(chapter), from: source, to: folder)
        }
        let workflow = folder.appendingPathComponent(ClassroomWorkflow.path)
        try fm.createDirectory(at: workflow.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(ClassroomWorkflow.yaml(for: assignment, workbook: workbook).utf8).write(to: workflow)
        try WorkbookLock.make(root: folder, assignment: assignment).write(root: folder)
        files += 2
        return Written(files: files, committed: Self.commit(folder))
    }

    /// Copies `relative` (a file or a folder) from `source` into `destination`, leaving out build
    /// folders, the learner's state and backups, and ``leftOut``; returns how many files it copied.
    private func copy(_ relative: String, from source: URL, to destination: URL) throws -> Int {
        let fm = FileManager.default
        if Self.leftOut.contains(relative) { return 0 }
        let name = (relative as NSString).lastPathComponent
        if name.hasPrefix(".build") || name.hasPrefix(".workbook-") || name == ".DS_Store" { return 0 }
        let from = source.appendingPathComponent(relative)
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: from.path, isDirectory: &isFolder) else { return 0 }
        if isFolder.boolValue {
            return try fm.contentsOfDirectory(atPath: from.path).sorted().reduce(0) { count, child in
                count + (try copy("\(relative)/\(child)", from: source, to: destination))
            }
        }
        let to = destination.appendingPathComponent(relative)
        try fm.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fm.copyItem(at: from, to: to)
        return 1
    }

    /// Makes the copy a git repository with one commit, when git is installed; its root commit is
    /// what the workflow restores protected files from, and what `workbook reset` restores starters from.
    private static func commit(_ folder: URL) -> Bool {
        let steps = [["init", "-q"], ["add", "-A"],
                     ["-c", "user.name=Dispatch Workbook", "-c", "user.email=workbook@localhost",
                      "commit", "-q", "-m", "Dispatch Workbook: student copy"]]
        for step in steps {
            guard let result = try? ChildProcess.run("git", ["-C", folder.path] + step, timeLimit: 60),
                  result.termination == .exited(0) else { return false }
        }
        return true
    }
}

import Foundation
import WorkbookCore
import WorkbookEngine

/// A student's copy of the workbook, as `workbook export` writes it: exactly the assigned chapters,
/// each exercise its pristine starter (never the teacher's working file), the package and the tool —
/// without the reference solutions, the near misses (their correct alternatives are solutions too),
/// the engine's own tests, the maintainers' CI and the workbook's documents — plus a README for students, the hints the teacher
/// chose (``ExportedHints``), the autograding workflow and `workbook.lock`.
package struct StudentCopy: Sendable {
    var workbook: Workbook
    var assignment: ClassroomAssignment
    /// How much of each hint ladder goes along.
    var hints: HintLevel

    package init(workbook: Workbook, assignment: ClassroomAssignment, hints: HintLevel = .default) {
        self.workbook = workbook
        self.assignment = assignment
        self.hints = hints
    }

    /// Entries copied as the workbook has them, by path from the package root: the top-level ones,
    /// and the measurements page, which the lessons link to and the grader's messages cite. The
    /// assigned chapters' exercise folders, the README and the hints are written apart.
    static let copied = [Layout.packageManifest, Layout.sourcesFolder, Layout.testsFolder, ".gitignore", "LICENSE",
                         Layout.measurementsPage]
    /// What stays behind in `Tests/` whatever is assigned: the near misses, the engine's own tests
    /// and their fixtures.
    package static let leftOutTests = ["\(Layout.testsFolder)/NearMisses", Layout.fixturesFolder]
        + Layout.engineTestTargets.map { "\(Layout.testsFolder)/\($0)" }
    /// What stays behind in `Sources/`: the workbook's documents, which are about the whole workbook
    /// (its solutions, near misses, self-test and classroom tools) and link to files a copy does not have.
    static let leftOutSources = [Layout.documentationFolder]
    /// The copy's README, for students (``StudentReadme``), in place of the workbook's.
    package static let readmeName = "README.md"

    /// What `write(to:)` did.
    package struct Written: Sendable, Equatable {
        /// Files written, by path from the copy's root.
        package var files: Int
        /// Whether the copy is a git repository with one commit (the template commit the workflow restores from).
        package var committed: Bool
        /// The assigned exercises whose file in the workbook's working tree is not its starter (a
        /// teacher's own attempt, say): the copy has the starter instead.
        package var notHandedOut: [String]
    }

    /// Writes the copy into `folder`, which must not exist or be empty: nothing is ever overwritten.
    /// Every starter is read before anything is written, so a missing one writes nothing.
    package func write(to folder: URL) throws -> Written {
        let fm = FileManager.default
        if fm.fileExists(atPath: folder.path) {
            let contents = (try? fm.contentsOfDirectory(atPath: folder.path)) ?? ["?"]
            guard contents.isEmpty else {
                throw ClassroomError.badInput(Says.copyFolderNotEmpty(folder.path))
            }
        }
        let source = workbook.root.standardizedFileURL
        // Inside a folder it copies, the copy would copy itself (a build folder is fine: none is copied).
        let inside = workbook.layout.relative(folder).split(separator: "/").first.map(String.init)
        guard !folder.standardizedFileURL.path.hasPrefix(source.path + "/")
            || !(Self.copied + [SourceSet.exercises.folder]).contains(inside ?? "") else {
            throw ClassroomError.badInput(Says.copyInsideWorkbook(inside ?? "", path: folder.path))
        }
        let assigned = assignment.exercises(in: workbook)
        let starters = Starters(workbook: workbook)
        let commit = starters.currentCommit()
        let files: [(path: String, starter: Data)] = try assigned.map { chapter, exercise, _ in
            (Layout.exerciseFile(chapter, exercise), try starters.starter(chapter, exercise, commit: commit))
        }
        let notHandedOut = zip(assigned, files).filter { _, file in
            fm.contents(atPath: workbook.layout.url(file.path).path) != file.starter
        }.map(\.0.exercise.id)

        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        let chapters = workbook.chapters.filter { assignment.chapters.contains($0.number) }
        let others = workbook.chapters.filter { !assignment.chapters.contains($0.number) }
        let leftOut = Set(Self.leftOutTests + Self.leftOutSources
            + others.flatMap { chapter in [Layout.testFolder(chapter)] + chapter.exercises.map { Layout.starterCopy(chapter, $0) } }
            + files.map(\.path))
        var written = 0
        for entry in Self.copied + chapters.map({ Layout.chapterFolder($0) }) {
            written += try copy(entry, from: source, to: folder, leaving: leftOut)
        }
        for file in files {
            try file.starter.write(to: folder.appendingPathComponent(file.path), options: .withoutOverwriting)
        }
        let generated: [(String, Data)] = [
            (Self.readmeName, Data(StudentReadme.render(assignment: assignment, workbook: workbook, hints: hints).utf8)),
            (ExportedHints.fileName, try handedOutHints(chapters).encoded()),
            (ClassroomWorkflow.path, Data(ClassroomWorkflow.yaml(for: assignment, workbook: workbook).utf8)),
        ]
        for (path, data) in generated {
            let url = folder.appendingPathComponent(path)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .withoutOverwriting)
        }
        try WorkbookLock.make(root: folder, assignment: assignment).write(root: folder)
        written += files.count + generated.count + 1
        // The teacher's fingerprints of the correct answers: in the folder, never in its history.
        try TeacherFile(workbook: workbook, assignment: assignment).write(root: folder)
        let ignore = folder.appendingPathComponent(".gitignore")
        let ignored = (try? String(contentsOf: ignore, encoding: .utf8)) ?? ""
        try (ignored + (ignored.isEmpty || ignored.hasSuffix("\n") ? "" : "\n") + "/\(TeacherFile.fileName)\n")
            .write(to: ignore, atomically: true, encoding: .utf8)
        return Written(files: written, committed: Self.commit(folder), notHandedOut: notHandedOut)
    }

    /// The hints of the assigned chapters' exercises, at the chosen level.
    private func handedOutHints(_ chapters: [Chapter]) -> ExportedHints {
        let ladders = chapters.flatMap { chapter in
            chapter.exercises.map { ($0.id, workbook.hints(for: $0, in: chapter)) }
        }
        return ExportedHints(level: hints, ladders: Dictionary(uniqueKeysWithValues: ladders))
    }

    /// Copies `relative` (a file or a folder) from `source` into `destination`, leaving out build
    /// folders, the learner's state and backups, and the paths in `leaving`; returns how many files
    /// it copied.
    private func copy(_ relative: String, from source: URL, to destination: URL, leaving: Set<String>) throws -> Int {
        let fm = FileManager.default
        if leaving.contains(relative) { return 0 }
        let name = (relative as NSString).lastPathComponent
        if name.hasPrefix(".build") || name.hasPrefix(".workbook-") || name == ".DS_Store" { return 0 }
        let from = source.appendingPathComponent(relative)
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: from.path, isDirectory: &isFolder) else { return 0 }
        if isFolder.boolValue {
            return try fm.contentsOfDirectory(atPath: from.path).sorted().reduce(0) { count, child in
                count + (try copy("\(relative)/\(child)", from: source, to: destination, leaving: leaving))
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

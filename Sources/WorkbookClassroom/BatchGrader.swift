import Foundation
import WorkbookCore
import WorkbookEngine

/// The teacher's batch: grades every submission (a clone of a student's repository) against the
/// teacher's pristine student copy — only the learner's exercise files are copied in, so every
/// protected file is as handed out, as the workflow restores them — each in a ``Sandbox``, and
/// gathers the rows of a ``Gradebook``. The protected files a submission changed are named beside
/// its grade; they never change its points. A submission that does not build, hangs or crashes gets
/// its row and never stops the batch.
package struct BatchGrader: Sendable {
    /// The teacher's student copy (the template), with its `workbook.lock`.
    var workbook: Workbook
    var lock: WorkbookLock
    /// The `workbook` tool to run `check --classroom --json` with.
    var executable: URL
    /// Whose sandbox the submissions are graded in (``Sandbox``).
    var platform: Platform
    /// Where each job keeps its package copy and build, from one submission to the next.
    var workFolder: URL
    /// Submissions graded at once (each with its own build: TSan builds are heavy).
    package var jobs = 1
    /// Seconds one submission may take in all, build included.
    var timeLimit: Double = 1_200
    var progress: @Sendable (String) -> Void
    /// The fingerprints of the correct answers `export` kept beside the copy, when they are here.
    let teacherFile: TeacherFile?
    /// The time a submission is graded at: the clock, or a fixed time in tests.
    var now: @Sendable () -> Date = { Date() }

    package init(workbook: Workbook, executable: URL, platform: Platform, workFolder: URL,
                 progress: @escaping @Sendable (String) -> Void = { _ in }) throws {
        self.workbook = workbook
        self.lock = try WorkbookLock.read(root: workbook.root)
        self.executable = executable
        self.platform = platform
        self.workFolder = workFolder
        self.progress = progress
        self.teacherFile = TeacherFile.read(root: workbook.root)
    }

    /// Whether submissions are compared with the correct answers (the teacher's file is here), not
    /// only with each other.
    package var comparesWithAnswers: Bool { teacherFile != nil }

    /// The assignment's name: as `export` recorded it, else the copy's folder name.
    var assignmentName: String { lock.assignment.name ?? workbook.root.standardizedFileURL.lastPathComponent }

    /// The submission folders under `folder`, sorted by name (hidden ones and files left out).
    package static func submissions(in folder: URL) throws -> [URL] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        return names.map { folder.appendingPathComponent($0) }.filter { url in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
        }
    }

    /// Grades `submissions`; the rows come back in name order.
    package func grade(_ submissions: [URL]) throws -> Gradebook {
        let exercises = lock.assignment.exercises(in: workbook).map(\.exercise.id)
        let rows = Rows()
        let next = Rows.Counter()
        let workers = max(1, min(jobs, submissions.count))
        DispatchQueue.concurrentPerform(iterations: workers) { job in
            while let index = next.take(below: submissions.count) {
                let submission = submissions[index]
                progress("Grading \(submission.lastPathComponent) (\(index + 1) of \(submissions.count))…")
                rows.add(grade(submission, job: job, exercises: exercises))
            }
        }
        return try Gradebook(exercises: exercises, maxPoints: lock.assignment.points, rows: rows.all, assignment: assignmentName)
    }

    /// One submission's row, with what settles a dispute about it: the commit graded and its date,
    /// when it was graded, and its exercises' fingerprints (and which are known correct answers).
    func grade(_ submission: URL, job: Int, exercises: [String]) -> Gradebook.Row {
        var row = verdicts(submission, job: job, exercises: exercises)
        row.gradedAt = now().formatted(.iso8601)
        (row.commit, row.commitDate) = Self.commit(of: submission)
        row.fingerprints = fingerprints(of: submission, exercises: exercises)
        for (id, fingerprint) in row.fingerprints {
            if let answer = teacherFile?.answer(id, fingerprint: fingerprint) { row.knownAnswers[id] = answer }
        }
        return row
    }

    /// The fingerprint of each of `exercises` whose file the submission changed from its starter (the
    /// copy's own file), comments and spacing aside; a file that is missing or not a regular file
    /// has none.
    func fingerprints(of submission: URL, exercises: [String]) -> [String: String] {
        var found: [String: String] = [:]
        for item in workbook.allExercises where exercises.contains(item.exercise.id) {
            let relative = Layout.exerciseFile(item.chapter, item.exercise)
            guard let theirs = Self.regularFile(submission.appendingPathComponent(relative)),
                  let starter = FileManager.default.contents(atPath: workbook.layout.url(relative).path) else { continue }
            let fingerprint = CodeFingerprint.of(String(decoding: theirs, as: UTF8.self))
            if fingerprint != CodeFingerprint.of(String(decoding: starter, as: UTF8.self)) { found[item.exercise.id] = fingerprint }
        }
        return found
    }

    /// The commit `folder`'s `HEAD` names and when it was committed (ISO 8601), read with git
    /// commands that run nothing the repository configures; empty when it is no repository.
    static func commit(of folder: URL) -> (sha: String, date: String) {
        let git = ["-C", folder.path, "-c", "core.fsmonitor=false", "--no-pager"]
        guard let head = try? ChildProcess.run("git", git + ["rev-parse", "--verify", "HEAD"], timeLimit: 30),
              head.termination == .exited(0),
              let sha = head.output.split(separator: "\n").first(where: { $0.wholeMatch(of: /[0-9a-f]{40,64}/) != nil }) else { return ("", "") }
        let object = try? ChildProcess.run("git", git + ["cat-file", "commit", String(sha)], timeLimit: 30)
        let seconds = object?.output.split(separator: "\n").lazy
            .compactMap { $0.wholeMatch(of: /committer .* (\d+) [+-]\d{4}/).flatMap { Double($0.1) } }.first
        return (String(sha), seconds.map { Date(timeIntervalSince1970: $0).formatted(.iso8601) } ?? "")
    }

    /// A submission's file as bytes, when it is a regular file (a link could point anywhere on the
    /// teacher's machine).
    static func regularFile(_ url: URL) -> Data? {
        guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey]),
              values.isRegularFile == true, values.isSymbolicLink != true else { return nil }
        return FileManager.default.contents(atPath: url.path)
    }

    /// One submission's points, verdicts and reasons; every failure is a note on the row, never an
    /// error of the batch.
    func verdicts(_ submission: URL, job: Int, exercises: [String]) -> Gradebook.Row {
        let student = submission.lastPathComponent
        let tampered = ((try? lock.verify(root: submission)) ?? []).map(\.path)
        let jobFolder = workFolder.appendingPathComponent("job-\(job)")
        let package = jobFolder.appendingPathComponent("package")
        do {
            try prepare(package, from: submission)
            let results = jobFolder.appendingPathComponent("results.json")
            try? FileManager.default.removeItem(at: results)
            let sandbox = Sandbox(folder: jobFolder, platform: platform)
            let command = try sandbox.command(
                executable.path, ["check", "--classroom", "--json"],
                environment: [WorkbookEnvironment.Name.root: package.path,
                              WorkbookEnvironment.Name.checkScratch: jobFolder.appendingPathComponent("build").path],
                stdoutFile: results)
            let run = try ChildProcess.run(command.executable, command.arguments, timeLimit: timeLimit)
            if case .timedOut = run.termination {
                return Gradebook.Row(student: student, cells: [:], tampered: tampered,
                                     note: Says.gradingTimedOut(after: timeLimit))
            }
            guard let data = FileManager.default.contents(atPath: results.path),
                  let decoded = try? JSONDecoder().decode(ExercismResults.self, from: data),
                  let grade = decoded.classroom else {
                let said = run.output.split(separator: "\n").last.map(String.init) ?? run.termination.description
                return Gradebook.Row(student: student, cells: [:], tampered: tampered, note: Says.submissionNotGraded(said))
            }
            let note = decoded.status == .error ? Says.submissionDidNotBuild : ""
            return Gradebook.Row(student: student, grade: grade, tampered: tampered, note: note)
        } catch {
            return Gradebook.Row(student: student, cells: [:], tampered: tampered, note: Says.submissionNotGraded("\(error)"))
        }
    }

    /// Makes `package` the teacher's copy with the submission's exercise files in it. A file the
    /// submission lacks, has as anything but a regular file (a link could point anywhere on the
    /// teacher's machine), or has under another spelling of its name (which a case-insensitive disk
    /// would open), stays the starter.
    func prepare(_ package: URL, from submission: URL) throws {
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try PackageMirror(source: workbook.root, copy: package).sync()
        // Every protected file as the lock has it (the workflow too), so that the copy verifies clean.
        for relative in try ProtectedPaths.list(under: workbook.root) + [WorkbookLock.fileName] {
            let destination = package.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try PackageMirror.replaceIfChanged(destination, with: Data(contentsOf: workbook.layout.url(relative)))
        }
        for item in workbook.allExercises {
            let relative = Layout.exerciseFile(item.chapter, item.exercise)
            guard PackageMirror.exactlyNamed(relative, under: submission),
                  let data = Self.regularFile(submission.appendingPathComponent(relative)) else { continue }
            try PackageMirror.replaceIfChanged(package.appendingPathComponent(relative), with: data)
        }
    }
}

/// Rows gathered from the batch's workers.
private final class Rows: Sendable {
    private let rows = Locked<[Gradebook.Row]>([])

    func add(_ row: Gradebook.Row) { rows.withLock { $0.append(row) } }
    var all: [Gradebook.Row] { rows.value }

    /// Hands out submission indices, each once.
    final class Counter: Sendable {
        private let next = Locked(0)

        func take(below count: Int) -> Int? {
            next.withLock { next in
                guard next < count else { return nil }
                defer { next += 1 }
                return next
            }
        }
    }
}

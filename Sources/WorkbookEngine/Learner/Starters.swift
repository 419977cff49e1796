import Foundation
import WorkbookCore

/// Restores starters, always keeping a backup of the learner's file first.
package struct Starters: Sendable {
    var workbook: Workbook

    package init(workbook: Workbook) { self.workbook = workbook }

    /// The pristine starter of an exercise: the copy the workbook keeps (see ``Layout/starterCopy(_:_:)``),
    /// or, in a copy of the workbook without it, the file in git at `commit`.
    package func starter(_ chapter: Chapter, _ exercise: Exercise, commit: String?) throws -> Data {
        if let kept = FileManager.default.contents(atPath: workbook.layout.url(Layout.starterCopy(chapter, exercise)).path) {
            return kept
        }
        guard let commit else {
            throw WorkbookError.starterNotKept(exercise: exercise.id, keptAt: Layout.starterCopy(chapter, exercise))
        }
        let path = Layout.exerciseFile(chapter, exercise)
        let result = try ChildProcess.run("git", ["-C", workbook.root.path, "show", "\(commit):\(path)"], timeLimit: 30)
        guard result.termination == .exited(0) else {
            throw WorkbookError.starterNotInGit(exercise: exercise.id, commit: commit,
                                                gitSaid: result.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return Data(result.output.utf8)
    }

    /// The commit the workbook was cloned at, to remember as the starters' source.
    package func currentCommit() -> String? {
        guard let result = try? ChildProcess.run("git", ["-C", workbook.root.path, "rev-parse", "HEAD"], timeLimit: 30),
              result.termination == .exited(0) else { return nil }
        let commit = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return commit.count == 40 ? commit : nil
    }

    /// What `reset` did to one file.
    package enum Outcome: Sendable, Equatable {
        /// The file already was the starter; nothing changed.
        case unchanged
        /// Restored; the learner's version was saved at this path (`nil`: the file was missing).
        case restored(backup: URL?)
    }

    /// Saves the learner's file to a timestamped backup, then writes the starter over it.
    func reset(_ chapter: Chapter, _ exercise: Exercise, commit: String?, now: Date = Date()) throws -> Outcome {
        let file = workbook.exerciseFile(chapter, exercise)
        let starter = try starter(chapter, exercise, commit: commit)
        let current = try? Data(contentsOf: file)
        if current == starter { return .unchanged }

        let stamp = Self.stamp(now)
        let backup = workbook.layout.url(Layout.backup(chapter, exercise, stamp: stamp))
        if let current {
            try FileManager.default.createDirectory(at: backup.deletingLastPathComponent(), withIntermediateDirectories: true)
            try current.write(to: backup, options: .withoutOverwriting)
            // Only once the backup is known to be on disk and whole is the learner's file replaced.
            guard (try? Data(contentsOf: backup)) == current else {
                throw WorkbookError.backupFailed(file: exercise.file, backup: backup.path)
            }
        }
        try starter.write(to: file, options: .atomic)
        return .restored(backup: current == nil ? nil : backup)
    }

    package static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss-SSS"
        return formatter.string(from: date)
    }

    /// Files the learner is not meant to edit — the tests, the test support, the manifest of the
    /// package, the solutions — that differ from `commit` (or are new). A grade is only as
    /// trustworthy as the tests that gave it, so `check` says when these changed.
    func frozenChanges(since commit: String) -> [String] {
        let frozen = Layout.frozen
        var changed: [String] = []
        if let diff = try? ChildProcess.run("git", ["-C", workbook.root.path, "diff", "--name-only", commit, "--"] + frozen, timeLimit: 30),
           diff.termination == .exited(0) {
            changed += diff.output.split(separator: "\n").map(String.init)
        }
        if let untracked = try? ChildProcess.run("git", ["-C", workbook.root.path, "ls-files", "--others", "--exclude-standard", "--"] + frozen, timeLimit: 30),
           untracked.termination == .exited(0) {
            changed += untracked.output.split(separator: "\n").map(String.init)
        }
        return Array(Set(changed)).sorted()
    }
}

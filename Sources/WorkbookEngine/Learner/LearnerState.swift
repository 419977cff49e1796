import Foundation
import WorkbookCore

/// What the workbook remembers for a learner: exercises done, hints shown, where the starters came
/// from. Lives in `.workbook-state.json` at the package root (git-ignored).
package struct LearnerState: Codable, Sendable, Equatable {
    /// The format of this file; a newer format than this tool knows is not overwritten.
    static let currentVersion = 1

    var version = LearnerState.currentVersion
    /// Exercise ids that passed a `check`.
    var done: Set<String> = []
    /// How many hint steps of each exercise have been shown.
    var hintsShown: [String: Int] = [:]
    /// Exercise ids a check has failed (a student copy's last hint step waits for one); optional, so
    /// that a state file written before it reads as it was.
    var failedChecks: Set<String>?
    /// The git commit whose Exercises/ are the pristine starters (`reset` restores from it).
    var starterCommit: String?

    package init() {}

    /// Marks every exercise a check graded as done or not done.
    mutating func record(_ report: CheckReport) {
        for result in report.results {
            if result.passed { done.insert(result.exercise.id) } else { done.remove(result.exercise.id) }
        }
    }

    /// Reads the state file; a missing file is a fresh state.
    package static func load(from url: URL) throws -> LearnerState {
        guard FileManager.default.fileExists(atPath: url.path) else { return LearnerState() }
        let data = try Data(contentsOf: url)
        guard let state = try? JSONDecoder().decode(LearnerState.self, from: data) else {
            throw WorkbookError.damagedProgressFile(path: url.path)
        }
        guard state.version <= currentVersion else {
            throw WorkbookError.newerProgressFile(path: url.path, version: state.version)
        }
        return state
    }

    /// Writes atomically (a temporary file, then a rename), so an interrupted write never leaves a
    /// half-written file behind.
    func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: url, options: .atomic)
    }
}
